/** Quotes a word for a POSIX shell, leaving plain paths readable. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_/.:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
