import { readFileSync } from 'node:fs';
import { errnoCode } from './errno';
import { isCharacterDevice } from './fd-write';

/** One process above this one: its id and the names it goes by. */
export interface ProcessNames {
  readonly pid: number;
  /** `comm`, argv[0], and argv[1] when argv[0] is a script runtime (node, bun, deno): `node …/codex.js`. */
  readonly names: readonly string[];
}

/** How far up the process tree to look: far beyond any real shell nesting, and a bound on a malformed /proc. */
const MAX_ANCESTORS = 64;

const RUNTIMES = new Set(['node', 'nodejs', 'bun', 'deno']);

/** What this process knows about itself when it records a decision (core/origin.ts judges it). */
export interface OwnFacts {
  readonly osUser: string;
  readonly terminal: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly ancestors: readonly ProcessNames[];
}

/** This process's user, terminal, environment and ancestors, gathered when a decision is recorded (not at load). */
export function processFacts(): OwnFacts {
  return { osUser: osUserName(), terminal: stdinIsTerminal(), env: process.env, ancestors: ancestorProcesses() };
}

/**
 * The name of the OS account this process runs as, from the password database (`os.userInfo()`): never $USER or
 * $LOGNAME, which whoever starts the process sets. A uid without an entry (a container's) is `uid N`.
 */
export function osUserName(): string {
  // Required here, not imported: every bin bundles this module, and only a decision asks for the user.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { userInfo } = require('node:os') as typeof import('node:os');
  try {
    const name = userInfo().username;
    if (name !== '') return name;
  } catch (error) {
    // A uid without a passwd entry: Node throws a SystemError (code ERR_SYSTEM_ERROR) whose `info.code` is libuv's
    // ENOENT. Anything else is not ours to hide.
    const info = typeof error === 'object' && error !== null && 'info' in error ? errnoCode(error.info) : undefined;
    if (errnoCode(error) !== 'ENOENT' && info !== 'ENOENT') throw error;
  }
  const uid = process.getuid?.();
  return uid === undefined ? 'unknown user' : `uid ${uid}`;
}

/**
 * Whether stdin is a terminal. Only a character device can be one (a pipe or a file never is), so node:tty, which
 * loads `net`, is required only then.
 */
export function stdinIsTerminal(): boolean {
  if (!isCharacterDevice(0)) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { isatty } = require('node:tty') as typeof import('node:tty');
  return isatty(0);
}

/**
 * The processes above this one, parent first, read from /proc (Linux): each one's `comm` and command line. The walk
 * ends at pid 1, at a process that cannot be read (gone, hidden by `hidepid`, no /proc on this system), or after
 * MAX_ANCESTORS.
 */
export function ancestorProcesses(procRoot = '/proc'): ProcessNames[] {
  const found: ProcessNames[] = [];
  for (let pid = process.ppid; pid > 1 && found.length < MAX_ANCESTORS;) {
    const stat = readProc(procRoot, pid, 'stat');
    if (stat === null) break;
    const argv = (readProc(procRoot, pid, 'cmdline') ?? '').split('\0');
    const names = [(readProc(procRoot, pid, 'comm') ?? '').trim(), argv[0] ?? ''];
    if (RUNTIMES.has(basename(argv[0] ?? ''))) names.push(argv[1] ?? '');
    found.push({ pid, names: names.filter((name) => name !== '') });
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so the fields are read after the last `)`.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(parent) || parent === pid) break;
    pid = parent;
  }
  return found;
}

// --- internal ---

function readProc(procRoot: string, pid: number, file: string): string | null {
  try {
    return readFileSync(`${procRoot}/${pid}/${file}`, 'utf8');
  } catch (error) {
    // Gone, not ours to see, or no /proc at all: the walk stops there. A detection helper reports what it sees.
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ESRCH' || code === 'EACCES' || code === 'EPERM' || code === 'ENOTDIR')
      return null;
    throw error;
  }
}

function basename(path: string): string {
  return path.split('/').pop() ?? '';
}
