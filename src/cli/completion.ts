import { isSessionError } from '../core/errors';
import { FINAL_PHASES, PHASES } from '../core/phase-names';
import { sessionIdsOf } from '../app/stores';
import type { CliIo } from './context';
import { VALUE_OPTIONS } from './options';

/** The shells `completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh'] as const;

/** Commands whose first argument is a session id. */
const ID_COMMANDS: ReadonlySet<string> = new Set([
  'update',
  'get',
  'show',
  'should-resume',
  'finalize',
  'approve',
  'reject',
  'delete',
  'export',
]);

/**
 * The candidates for the word being completed that yargs' default completion (commands and options) cannot know:
 * session ids from the store, phases after `--phase`, outcomes of `finalize`, the shells of `completion`; `[]` for
 * the value of another option (the shell then offers file names); undefined to leave the word to the default.
 * Ids come from one listing of the store root, no session read, so a store of any size or damage answers at once;
 * a store that cannot be listed gives no candidates (never a message: completion output is only candidates).
 * @param words the words after the program name, the last one being completed (empty when nothing is typed yet)
 */
export function valueCandidates(words: readonly string[], io: Pick<CliIo, 'env' | 'cwd'>): string[] | undefined {
  const current = words[words.length - 1] ?? '';
  let dir: string | undefined;
  let pending: string | undefined;
  const positionals: string[] = [];
  for (const word of words.slice(0, -1)) {
    if (pending !== undefined) {
      if (pending === '--dir') dir = word;
      pending = undefined;
    } else if (word.startsWith('--')) {
      const [name, value] = splitOption(word);
      if (value === undefined && VALUE_OPTIONS.has(name)) pending = name;
      else if (name === '--dir') dir = value;
    } else if (!word.startsWith('-') || word === '-') {
      positionals.push(word);
    }
  }
  const matching = (values: readonly string[]): string[] => values.filter((value) => value.startsWith(current));
  if (pending === '--phase') return matching(PHASES);
  if (pending !== undefined) return [];
  if (current.startsWith('-')) return undefined;
  const [command, ...args] = positionals;
  if (command === undefined) return undefined;
  if (ID_COMMANDS.has(command) && args.length === 0) return matching(storeIds(dir, io).sort());
  // `adopt` takes any number of ids.
  if (command === 'adopt') return matching(storeIds(dir, io).sort());
  if (command === 'finalize' && args.length === 1) return matching(FINAL_PHASES);
  if (command === 'completion' && args.length === 0) return matching(COMPLETION_SHELLS);
  return undefined;
}

// --- internal ---

function splitOption(word: string): [string, string | undefined] {
  const at = word.indexOf('=');
  return at === -1 ? [word, undefined] : [word.slice(0, at), word.slice(at + 1)];
}

function storeIds(dir: string | undefined, io: Pick<CliIo, 'env' | 'cwd'>): string[] {
  try {
    return sessionIdsOf({ dir, env: io.env, cwd: io.cwd });
  } catch (error) {
    // A store that cannot be found or listed (a file, no permission) has nothing to offer; a bug still shows.
    if (isSessionError(error)) return [];
    throw error;
  }
}
