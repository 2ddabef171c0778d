/** Cuts `text` to at most `limit` characters, marking the cut. */
export function excerpt(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
