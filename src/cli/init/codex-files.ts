import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errnoCode, ioError } from '../../platform/errno';
import { writeFileAtomic } from '../../platform/atomic-file';
import { PRIVATE_DIR } from '../../platform/private-fs';
import { nodeCommand } from './settings';

/** `<project>/.codex/hooks.json`: where the Codex CLI reads a project's hooks (a trusted project's). */
export function codexHooksPath(project: string): string {
  return join(project, '.codex', 'hooks.json');
}

/** `<project>/.codex/rules/agent-session.rules`: the exec-policy rule `init --host codex` writes (the whole file). */
export function codexRulesPath(project: string): string {
  return join(project, '.codex', 'rules', 'agent-session.rules');
}

/** A Codex hook's command: the node and the bin by absolute path, as for Claude Code, then `--host codex`. */
export function codexCommand(node: string, path: string): string {
  return `${nodeCommand(node, path)} --host codex`;
}

/**
 * The exec-policy rule that lets a Codex sub-agent's recording command run: Codex's sandbox (read-only, or
 * workspace-write without network, which a PostgreSQL store needs) would refuse the store's write, and `codex exec`
 * cannot ask. `allow` runs a command that starts with exactly these words without a prompt and outside the sandbox,
 * whatever follows them (Codex has no exact rule): the node and CLI by absolute path, the `record` entry, `--dir` and
 * the store root the hooks resolve, `--pin` and the store's pin. The entry (src/cli/record.ts) refuses whatever
 * follows but the recording of the asking thread's own session: no other option, store, file or command.
 */
export function codexRulesText(words: readonly string[]): string {
  return (
    '# Written by `agent-session init --host codex`: a sub-agent records its phase without a prompt, whatever the\n' +
    '# sandbox. `agent-session init --host codex --uninstall` removes this file.\n' +
    `prefix_rule(\n    pattern = [${words.map((word) => JSON.stringify(word)).join(', ')}],\n    decision = "allow",\n)\n`
  );
}

/** What writing or removing the rules file did. */
export type RulesChange = 'added' | 'updated' | 'kept' | 'removed' | 'absent';

/**
 * Writes the rules file when its text differs (atomically; the folder made private if new).
 * @throws SessionError E_IO
 */
export function writeCodexRules(path: string, text: string, dryRun: boolean): RulesChange {
  const before = readOrNull(path);
  if (before === text) return 'kept';
  if (!dryRun) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR });
    } catch (error) {
      throw ioError(error, 'create the folder', dirname(path));
    }
    writeFileAtomic(path, text);
  }
  return before === null ? 'added' : 'updated';
}

/** Removes the rules file (it is wholly ours). @throws SessionError E_IO */
export function removeCodexRules(path: string, dryRun: boolean): RulesChange {
  if (readOrNull(path) === null) return 'absent';
  if (!dryRun) {
    try {
      rmSync(path);
    } catch (error) {
      throw ioError(error, 'remove', path);
    }
  }
  return 'removed';
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, 'read', path);
  }
}
