import { SessionError, show } from '../core/errors';

/**
 * Every option that takes a value, so a word after one is read as its value, not as a command or an id. A test
 * checks it against every command's help (each `[string]` option is here).
 */
export const VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '--dir',
  '--agent',
  '--purpose',
  '--metadata',
  '--id',
  '--phase',
  '--error',
  '--summary',
  '--hours',
  '--since',
  '--out',
  '--project',
]);

/** Every on/off option (each `[boolean]` of the help; a test checks it). */
export const FLAG_OPTIONS: ReadonlySet<string> = new Set([
  '--json',
  '--dry-run',
  '--active-only',
  '--uninstall',
  '--new-id',
  '--help',
  '--version',
]);

/**
 * Refuses an on/off option written with a value other than true or false: yargs reads `--dry-run=yes` (or `=1`) as
 * false, so `cleanup --dry-run=yes` would remove what the user only meant to see.
 * @throws SessionError E_USAGE naming the word
 */
export function assertFlagValues(args: readonly string[]): void {
  for (const word of args) {
    if (word === '--') return;
    const match = /^(--(?:no-)?[a-z-]+)=(.*)$/s.exec(word);
    if (match === null) continue;
    const flag = match[1]!.replace(/^--no-/, '--');
    if (!FLAG_OPTIONS.has(flag) || match[2] === 'true' || match[2] === 'false') continue;
    throw new SessionError('E_USAGE', `Expected \`${flag}\` alone (or =true, =false), got ${show(word)}`);
  }
}
