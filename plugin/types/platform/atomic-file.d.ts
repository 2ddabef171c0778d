/** How a temp file beside its target is named: `.<name>.<pid>.<hex>.tmp` (hidden) or `<name>.<pid>.<hex>.tmp` (suffix). */
export type TempName = 'hidden' | 'suffix';
/**
 * Replaces `file` atomically: writes a unique temp file in the same folder, fsyncs it, renames it over
 * the target and fsyncs the folder. A reader sees the old content or the new, never a torn file.
 * @param options.durable false: no fsync (two fewer disk flushes), for caches that are checked on read and rebuilt
 *   when a crash loses or tears them
 * @param options.syncFolder false (with durable): the file is flushed but not the folder; the caller flushes the folder
 *   once after several such writes (syncFolder), before anything that must come after them
 * @param options.temp the temp file's name: `.<name>.<pid>.<hex>.tmp` (hidden, the default) or `<name>.<pid>.<hex>.tmp`
 *   (suffix), as the sweep of that folder knows it
 * @throws SessionError E_IO (the previous content is intact and the temp file removed)
 */
export declare function writeFileAtomic(file: string, text: string, options?: {
    readonly durable?: boolean;
    readonly syncFolder?: boolean;
    readonly temp?: TempName;
}): void;
/**
 * Creates `file` holding `text` only when nothing is there (a temp file linked into place, so a reader never sees it
 * half written and an existing file is never replaced). Not flushed: the caller syncs what it must (syncFile). `temp`
 * as writeFileAtomic's.
 * @returns false when `file` already existed (left as it was)
 * @throws SessionError E_IO
 */
export declare function createFileAtomic(file: string, text: string, temp?: TempName): boolean;
/**
 * Flushes a file that is already written (fsync) and never through a link: cheap when the kernel wrote it back already.
 * @returns false when it is absent
 * @throws SessionError E_IO
 */
export declare function syncFile(file: string): boolean;
/**
 * Flushes a folder (fsync): the names created, renamed or removed in it so far outlive a crash of the machine.
 * @throws SessionError E_IO
 */
export declare function syncFolder(dir: string): void;
