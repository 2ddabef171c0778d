/**
 * The words of `command` when it is plain (see the module comment), else null. Words are separated by spaces or
 * tabs; quotes join and end inside a word as in sh (`--x='a b'c` is one word, `--x=a bc`).
 */
export declare function plainWords(command: string): string[] | null;
