/** A running server's page: its port on 127.0.0.1, and the process that serves it. */
export interface RunningPage {
    readonly port: number;
    readonly pid: number;
}
/**
 * Records that the `serve` of `key` (its store root's log folder) listens on `page.port`, in `dataFolder` (0700
 * folders, a 0600 file); returns how to remove the record, which it does only while the record is still its own.
 * @throws SessionError E_IO, E_REFUSED (a folder that is a link)
 */
export declare function recordRunningPage(dataFolder: string, key: string, page: RunningPage): () => void;
/** The page the `serve` of `key` recorded, while that process runs; null when none runs (or the record is not sound). */
export declare function runningPage(dataFolder: string, key: string): RunningPage | null;
