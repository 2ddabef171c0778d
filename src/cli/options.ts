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
  '--older-than',
  '--since',
  '--out',
  '--project',
  '--by',
  '--note',
  '--reason',
  '--to',
  '--from',
  '--database-url',
  '--port',
  '--limit',
]);

/** Every on/off option (each `[boolean]` of the help; a test checks it). */
export const FLAG_OPTIONS: ReadonlySet<string> = new Set([
  '--json',
  '--dry-run',
  '--active-only',
  '--uninstall',
  '--new-id',
  '--force',
  '--mermaid',
  '--explain',
  '--all-projects',
  '--unassigned',
  '--open',
  '--quiet',
  '--revoke',
  '--status',
  '--help',
  '--version',
]);

/**
 * A number option as the help shows it (`[number]`), read as its text. yargs' own number parsing would read `""` and
 * `" "` as 0 (cleanup would remove everything) and `abc` as NaN, so the command parses the text itself
 * (core/decimal.ts) and names it when refused. yargs-parser keeps the text of an option declared both string and
 * number, and yargs' help shows `[number]` for it (tests/e2e/cli-frictions.test.ts checks both).
 */
export function numberTextOption(describe: string) {
  return { type: 'string', number: true, requiresArg: true, describe } as const;
}

/**
 * The global options that choose the store (main.ts): hidden from the help of a command that opens no store
 * (`machine`, `completion`), where they would mean nothing. yargs still accepts them there.
 */
export const STORE_OPTIONS = ['dir', 'database-url'] as const;

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

/**
 * Refuses an option given twice with different values (`--phase a --phase b`: which one was meant?) and keeps one
 * copy of a repeated identical one. `--metadata` may repeat: its objects are merged (args.ts).
 */
export function rejectRepeats(argv: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(argv)) {
    // `--metadata` objects are merged; `adopt`'s ids are a list.
    if (key === '_' || key === 'metadata' || key === 'ids' || !Array.isArray(value)) continue;
    if (new Set(value.map((item) => JSON.stringify(item))).size > 1) {
      const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      const given = value.map((item) => show(item)).join(', ');
      throw new SessionError('E_USAGE', `Expected \`${flag}\` once, got it ${value.length} times (${given})`);
    }
    argv[key] = value[0];
  }
}

/**
 * yargs' own messages, in the house's words (what was expected, what was given) where they read badly.
 * @param usages every command's usage line (`get <id>`)
 */
export function usageMessage(message: string, args: readonly string[], usages: readonly string[]): string {
  const missingValue = /^Not enough arguments following: (.+)$/.exec(message);
  if (missingValue !== null) {
    const flag = `--${missingValue[1]}`;
    return `Expected a value after \`${flag}\`, got none (a value that begins with a dash: \`${flag}=-x\`)`;
  }
  const command = usages.find((line) => args.includes(line.split(' ')[0]!));
  const usage = command === undefined ? undefined : `agent-session ${command}`;
  if (usage !== undefined && /^Not enough non-option arguments/.test(message))
    return `Expected \`${usage}\`, got fewer arguments (see \`--help\`)`;
  const missingOptions = /^Missing required arguments?: (.+)$/.exec(message);
  if (missingOptions !== null) {
    const flags = missingOptions[1]!.split(', ').map((name) => `\`--${name}\``);
    return `Expected ${flags.join(' and ')}${usage === undefined ? '' : ` for \`${usage}\``}, got none`;
  }
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknown !== null) {
    const words = unknown[1]!.split(', ').map((name) => show(asTyped(name, args)));
    const where = usage === undefined ? '' : ` of \`${usage}\``;
    return `Expected only the options and arguments${where} (see \`--help\`), got ${words.join(', ')}`;
  }
  return message;
}

/** An unknown name as the user typed it: yargs strips the dashes of `--hours` and `-j`. */
function asTyped(name: string, args: readonly string[]): string {
  const long = `--${name}`;
  if (args.some((word) => word === long || word.startsWith(`${long}=`))) return long;
  if (name.length === 1 && args.some((word) => /^-[^-]/.test(word) && word.includes(name))) return `-${name}`;
  return name;
}
