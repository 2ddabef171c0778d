/** `value` unless it is absent or blank (an empty variable means "not set"). */
export declare function nonEmpty(value: string | undefined): string | undefined;
/** `raw` as a number when it is a finite number above 0 (an environment setting), else undefined. */
export declare function positiveNumber(raw: string | undefined): number | undefined;
