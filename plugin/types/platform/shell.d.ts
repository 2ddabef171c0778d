/** Quotes a word for a POSIX shell, leaving plain paths readable. */
export declare function shellQuote(word: string): string;
