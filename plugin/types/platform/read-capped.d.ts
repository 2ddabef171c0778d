/**
 * Reads a file, or an open descriptor such as stdin, to its end, keeping at most `maxBytes`: a larger input is not
 * read past the limit (a `/dev/zero` or an endless pipe ends the read too). Pipes and process substitutions
 * (`<(cmd)`) are read like files. A non-blocking descriptor inherited from a parent (EAGAIN) is polled.
 * @returns the bytes, or `too-large` when the input has more than `maxBytes`
 * @throws the file system's error (ENOENT, EISDIR, EACCES…): the caller names the path and decides
 */
export declare function readCapped(source: string | number, maxBytes: number): Buffer | 'too-large';
