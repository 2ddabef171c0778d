import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ioError } from '../../platform/errno';
import { writeFileAtomic } from '../../platform/atomic-file';
import { textOrNull } from '../../platform/files';
import { PRIVATE_DIR } from '../../platform/private-fs';
import { nodeCommand } from './settings';
import { backUp } from './settings-file';

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
export type RulesChange =
  | { readonly kind: 'added' | 'updated' | 'kept' | 'removed' | 'absent' }
  /** A file init did not write: backed up (`backup`, or null in a dry run) before it was replaced. */
  | { readonly kind: 'replaced'; readonly backup: string | null }
  /** A file init did not write, left alone by `--uninstall`. */
  | { readonly kind: 'not_ours' };

/**
 * Whether `text` is a rules file init wrote: its two header lines, then one allow prefix_rule, exactly as
 * codexRulesText words it (whatever the words): a user's own rules, or ours edited, are not.
 */
export function isOurRules(text: string): boolean {
  return /^# Written by `agent-session init --host codex`[^\n]*\n#[^\n]*\nprefix_rule\(\n {4}pattern = \[[^\n]*\],\n {4}decision = "allow",\n\)\n$/.test(
    text,
  );
}

/**
 * Writes the rules file when its text differs (atomically; the folder made private if new). A file init did not
 * write (isOurRules) is first copied to `agent-session.rules.bak-<UTC time>`, as `init` backs up a settings file.
 * @throws SessionError E_IO
 */
export function writeCodexRules(path: string, text: string, dryRun: boolean, now: Date): RulesChange {
  const before = textOrNull(path);
  if (before === text) return { kind: 'kept' };
  const foreign = before !== null && !isOurRules(before);
  let backup: string | null = null;
  if (!dryRun) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR });
    } catch (error) {
      throw ioError(error, 'create the folder', dirname(path));
    }
    if (foreign) backup = backUp(path, `${path}.bak-${now.toISOString().replace(/[-:.]/g, '')}`);
    writeFileAtomic(path, text);
  }
  if (foreign) return { kind: 'replaced', backup };
  return { kind: before === null ? 'added' : 'updated' };
}

/** Removes the rules file when init wrote it (isOurRules); a file of the user's is left alone. @throws SessionError E_IO */
export function removeCodexRules(path: string, dryRun: boolean): RulesChange {
  const before = textOrNull(path);
  if (before === null) return { kind: 'absent' };
  if (!isOurRules(before)) return { kind: 'not_ours' };
  if (!dryRun) {
    try {
      rmSync(path);
    } catch (error) {
      throw ioError(error, 'remove', path);
    }
  }
  return { kind: 'removed' };
}
