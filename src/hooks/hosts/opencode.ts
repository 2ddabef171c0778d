// opencode as a host: its in-process plugin (opencode-plugin.ts) reads opencode's hooks and events as Claude Code's
// payloads already, so its adapter passes them as they are; here are its words and its CLI words.
import type { HostAdapter } from './adapter';
import { cliWords } from './cli-words';

/**
 * opencode: the plugin's payloads as they are (it makes them in Claude Code's shape), its words (a sub-agent is
 * resumed by a `task` call with the same `subagent_type`; the links hold the task calls' ids), the CLI by absolute path
 * run by `node` from the shell's PATH: the plugin runs inside opencode's own runtime (Bun), whose executable is
 * opencode itself, not a node to run the CLI with.
 */
export const opencode: HostAdapter = {
  normalize: (payload) => ({ payload }),
  words: {
    agent: 'opencode',
    host: 'opencode',
    resuming:
      'A task call with the same subagent_type resumes its session: the sub-agent is told what was recorded, and ' +
      "continues opencode's own child session (task_id) where that still exists.",
  },
  cliWords: (io, root) => cliWords({ ...io, execPath: undefined }, root),
};
