import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * Where a text JSON.parse refused goes wrong, as `line L, column C (KIND)`, and nothing of the text itself: a
 * settings file holds secrets (API keys in `env`), and V8's own message quotes the text around the error.
 * jsonc-parser (a scanner with offsets, made for editors) finds the place; it runs only after JSON.parse failed,
 * and only in the CLI's `init` (never in a hook).
 */
export function jsonErrorPlace(text: string): string {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return 'a syntax error';
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${column} (${printParseErrorCode(first.error)})`;
}
