import { join, resolve } from 'node:path';
import { DEFAULT_CONFIG, logs } from '../../core/config';
import { logDirFor, openSessions, storeRoot } from '../../app/assembly';
import { handleClaudeCode, payloadCwd, type ClaudeCodeOutcome } from './claude-code';
import { hookConfig } from '../../app/hook-config';
import { appendLog, logValue } from '../log';
import type { HookIo } from '../io';
import { nonEmpty } from '../../platform/env';
import { isDirectory } from '../../platform/files';
import { resolveFrom } from '../../platform/working-directory';

/**
 * Answers one Claude Code payload: at most one JSON object on stdout, a line in the log, and no exception.
 * The store is `$CLAUDE_PROJECT_DIR`'s, else the payload `cwd`'s when that folder exists (its nearest `.claude/`
 * ancestor, else the folder itself), else the usual one; `--dir`-like overrides (`AGENT_SESSION_DIR`) still win.
 * Fails open: whatever breaks, nothing is printed (Claude Code's own flow goes on) and the error is logged.
 */
export async function runClaudeCode(
  payload: Record<string, unknown> & { hook_event_name: string },
  io: HookIo,
  logFile: string,
): Promise<void> {
  let root: string | undefined;
  let outcome: ClaudeCodeOutcome;
  let note = '';
  let level: 'info' | 'warn' | 'error' = 'info';
  let logLevel = DEFAULT_CONFIG.log_level;
  let logMaxBytes = DEFAULT_CONFIG.log_max_bytes;
  try {
    // A folder named by the payload that does not exist is not a project: nothing is created there.
    const claimed = payloadCwd(payload);
    const cwd = claimed !== undefined && isDirectory(claimed) ? claimed : io.cwd;
    root = storeRoot({ env: io.env, cwd });
    const { config, warning } = hookConfig(io.env, cwd, root);
    logLevel = config.log_level;
    logMaxBytes = config.log_max_bytes;
    if (warning) {
      note = ` warning=${logValue(warning)}`;
      level = 'warn';
    }
    const project = nonEmpty(io.env.CLAUDE_PROJECT_DIR);
    if (
      nonEmpty(io.env.AGENT_SESSION_DIR) === undefined &&
      project !== undefined &&
      !isDirectory(resolveFrom(cwd, project, '`CLAUDE_PROJECT_DIR`'))
    ) {
      // A mistyped CLAUDE_PROJECT_DIR is not a project: no folder tree is created for it (fail open, no answer).
      outcome = { answer: null, note: `project_missing project=${logValue(project)}` };
    } else {
      const sessions = openSessions({ dir: root, env: io.env, cwd, hook: true }, config);
      try {
        // The store's clock: "last active 5 minutes ago" is said by the clock that dated it.
        const now = await sessions.now();
        outcome = await handleClaudeCode(sessions, payload, { cli: cliWords(io, root), now });
      } finally {
        await sessions.close();
      }
    }
  } catch (error) {
    outcome = { answer: null, note: 'error' };
    level = 'error';
    note += ` error=${logValue(error instanceof Error ? error.message : String(error))}`;
    if (io.env.AGENT_SESSION_DEBUG === '1' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  }
  let line: string | null = null;
  try {
    line = outcome.answer === null ? null : JSON.stringify(outcome.answer);
  } catch (error) {
    // Fail open: nothing printed is a valid answer in Claude Code's protocol.
    note += ` error=${logValue(error instanceof Error ? error.message : String(error))}`;
    level = 'error';
  }
  if (line !== null) io.write(`${line}\n`);
  if (root !== undefined && logs(logLevel, level)) {
    const event = logValue(payload.hook_event_name.slice(0, 60));
    appendLog(logDirFor(root, io.env), logFile, `claude-code event=${event} ${outcome.note}${note}`, {
      maxBytes: logMaxBytes,
    });
  }
}

/**
 * The words that run the CLI on `root`. Installed as a Claude Code plugin (this bin is `${CLAUDE_PLUGIN_ROOT}/dist`),
 * `agent-session`: the plugin's `bin/` is on the PATH of Claude Code's Bash tool. Else the sibling bundle, run by
 * the node running this hook, by absolute path (a GUI-started Claude Code may lack the shell's nvm or volta PATH);
 * from sources, `agent-session` on PATH.
 */
export function cliWords(io: Pick<HookIo, 'binDir' | 'env' | 'execPath'>, root: string): string[] {
  const pluginRoot = nonEmpty(io.env.CLAUDE_PLUGIN_ROOT);
  const plugin = io.binDir !== undefined && pluginRoot !== undefined && resolve(pluginRoot, 'dist') === io.binDir;
  if (io.binDir === undefined || plugin) return ['agent-session', '--dir', root];
  return [io.execPath ?? 'node', join(io.binDir, 'agent-session.cjs'), '--dir', root];
}
