import { type Stats } from 'node:fs';
/**
 * True when `path` is a folder (through links); false when it is absent, not a folder, or not ours to look at.
 * @throws SessionError E_IO for any other failure to look
 */
export declare function isDirectory(path: string): boolean;
/**
 * The entry itself (a symbolic link is not followed), or null when it is absent.
 * @throws SessionError E_IO for any other failure to look
 */
export declare function lstatOrNull(path: string): Stats | null;
/**
 * The names in a folder, or null when it is absent (removed meanwhile, or never made).
 * @throws SessionError E_IO for any other failure to list it
 */
export declare function namesOrNull(path: string): string[] | null;
/**
 * A file's text (UTF-8), or null when it is absent.
 * @throws SessionError E_IO for any other failure to read it
 */
export declare function textOrNull(path: string): string | null;
