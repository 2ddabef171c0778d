/**
 * The folder (in the log folder) of the markers that make the line at a turn's end name each decision once on this
 * machine: one empty file per item, named by its key, claimed atomically (platform/once-marker.ts), as `notify`'s. A
 * marker, not a field of the session: telling writes nothing into the agent's record (no lock, no write on a shared
 * PostgreSQL store, where each machine's person is told on their own), two hooks at once (two Claude Code sessions in
 * one project) still tell it once, and `.claude/logs` is never committed.
 */
export declare function toldDir(logDir: string): string;
/** What a line for the person needs: the record of what was told, and the page to decide on. */
export interface PersonChannel {
    /** Claims `key` as told on this machine: true the first time, false ever after. @throws SessionError E_IO */
    claim(key: string): boolean;
    /** The page of the `serve` running for this store root, or null when none runs (runningPageOf). */
    page(): string | null;
}
/** The person's channel of a call whose log folder is `logDir`. */
export declare function personChannel(logDir: string, env: Readonly<Record<string, string | undefined>>): PersonChannel;
/**
 * The address of the page of the `serve` running for the store root whose log folder is `logDir` (as it recorded it
 * in this user's data folder: platform/running-page.ts), or null when none runs.
 */
export declare function runningPageOf(logDir: string, env: Readonly<Record<string, string | undefined>>): string | null;
