/**
 * A plain decimal number (`24`, `1.5`, spaces around allowed), or NaN for anything else: `Number()` alone would
 * also take `0x10`, `1e3`, `Infinity` and the empty string. Shared by every numeric option and variable.
 */
export declare function parseDecimal(raw: string): number;
