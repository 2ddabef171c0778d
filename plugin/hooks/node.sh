#!/bin/sh
# Runs one of agent-session's bins (its path: $1, then its arguments: the hooks, the slash commands' CLI) with a node
# found the way a desktop-started Claude Code needs: its PATH may have no nvm, volta, fnm, asdf or Homebrew folder (the
# reason `agent-session init` names node by absolute path). PATH first, then the usual install places. None found:
# one line on stderr (`claude --debug` shows it), nothing on stdout and exit 0, as every hook of ours that cannot run:
# the host goes on without us.
# What it runs knows it is the plugin's: its hooks yield where `agent-session init` wired ours too
# (src/hooks/plugin-yield.ts), so each event is answered once.
AGENT_SESSION_VIA_PLUGIN=1
export AGENT_SESSION_VIA_PLUGIN
# The usual case first, without a subshell: node on PATH.
if command -v node >/dev/null 2>&1; then exec node "$@"; fi
node=
if [ -z "$node" ]; then
  for candidate in "$HOME/.volta/bin/node" "$HOME/.local/share/fnm/aliases/default/bin/node" \
    "$HOME/.asdf/shims/node" "$HOME/.local/share/mise/shims/node" /opt/homebrew/bin/node /usr/local/bin/node; do
    if [ -x "$candidate" ]; then
      node=$candidate
      break
    fi
  done
fi
if [ -z "$node" ]; then
  # nvm: the last installed version in name order.
  for candidate in "$HOME"/.nvm/versions/node/*/bin/node; do
    if [ -x "$candidate" ]; then node=$candidate; fi
  done
fi
if [ -z "$node" ]; then
  echo "agent-session: no node found (not on PATH=$PATH, nor in volta, fnm, asdf, mise, nvm, /opt/homebrew/bin or /usr/local/bin): hook skipped; install Node 20+ or start Claude Code with node on its PATH" >&2
  exit 0
fi
exec "$node" "$@"
