/** `value` unless it is absent or blank (an empty variable means "not set"). */
export function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/** `raw` as a number when it is a finite number above 0 (an environment setting), else undefined. */
export function positiveNumber(raw: string | undefined): number | undefined {
  const value = Number(raw);
  return raw !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}
