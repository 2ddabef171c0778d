/**
 * A count with its noun, in the plural unless the count is exactly 1: `1 session`, `0 sessions`, `2 sessions`.
 * @param plural the plural form when it is not the noun and an `s` (`1 entry`, `2 entries`)
 */
export declare function counted(count: number, noun: string, plural?: string): string;
