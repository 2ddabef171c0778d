/** Reads a regular file as strict UTF-8 without following a symbolic link; null when absent. */
export declare function readRegularFile(file: string): {
    readonly text: string;
} | {
    readonly problem: string;
} | null;
