/** One process above this one: its id and the names it goes by. */
export interface ProcessNames {
    readonly pid: number;
    /** `comm`, argv[0], and argv[1] when argv[0] is a script runtime (node, bun, deno): `node …/codex.js`. */
    readonly names: readonly string[];
}
/** What this process knows about itself when it records a decision (core/origin.ts judges it). */
export interface OwnFacts {
    readonly osUser: string;
    readonly terminal: boolean;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly ancestors: readonly ProcessNames[];
}
/** This process's user, terminal, environment and ancestors, gathered when a decision is recorded (not at load). */
export declare function processFacts(): OwnFacts;
/**
 * The name of the OS account this process runs as, from the password database (`os.userInfo()`): never $USER or
 * $LOGNAME, which whoever starts the process sets. A uid without an entry (a container's) is `uid N`.
 */
export declare function osUserName(): string;
/**
 * Whether stdin is a terminal. Only a character device can be one (a pipe or a file never is), so node:tty, which
 * loads `net`, is required only then.
 */
export declare function stdinIsTerminal(): boolean;
/**
 * The processes above this one, parent first, read from /proc (Linux): each one's `comm` and command line. The walk
 * ends at pid 1, at a process that cannot be read (gone, hidden by `hidepid`, no /proc on this system), or after
 * MAX_ANCESTORS.
 */
export declare function ancestorProcesses(procRoot?: string): ProcessNames[];
