// Where a JSON text breaks, without quoting it. Node 20's JSON.parse messages quote the text around the error
// (`Unexpected token 'h', "hunter2" is not valid JSON`), which would print a file's secrets in an error message;
// and some of them give no position at all. This scanner is only run after JSON.parse has failed.
// Hand-written rather than jsonc-parser: it runs in the hooks too (a corrupt state.json), and jsonc-parser's UMD
// `main` does not bundle with esbuild (its ESM build does, at ~12 KB more in each hook bundle).

/** What is wrong with a JSON text, and where (1-based line and column, counted in characters). */
export interface JsonSyntaxProblem {
  readonly line: number;
  readonly column: number;
  readonly problem: string;
}

/**
 * The first syntax error of `text`, located by line and column and described in words that quote none of it.
 * Returns null when the text is valid JSON (the caller then has no syntax error to report).
 */
export function locateJsonError(text: string): JsonSyntaxProblem | null {
  const scanner = new Scanner(text);
  try {
    scanner.skipSpace();
    scanner.value(0);
    scanner.skipSpace();
    if (scanner.at < text.length) scanner.fail('unexpected content after the JSON value');
    return null;
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    return { ...lineAndColumn(text, error.at), problem: error.message };
  }
}

/** "line 3, column 14: unterminated string", or a plain phrase when the text is valid. */
export function describeJsonError(text: string): string {
  const found = locateJsonError(text);
  return found === null ? 'a syntax error' : `line ${found.line}, column ${found.column}: ${found.problem}`;
}

// --- internal ---

class Failure extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

/** Nesting deeper than this is reported, not recursed into (JSON.parse itself fails long before). */
const MAX_DEPTH = 1000;

class Scanner {
  at = 0;
  constructor(private readonly text: string) {}

  fail(problem: string, at = this.at): never {
    throw new Failure(problem, at);
  }

  skipSpace(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at]!)) this.at++;
  }

  value(depth: number): void {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    if (this.at >= this.text.length) this.fail('unexpected end of input');
    const c = this.text[this.at]!;
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return;
      }
    }
    this.fail('unexpected character where a value was expected');
  }

  object(depth: number): void {
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.at >= this.text.length) this.fail('unexpected end of input');
      if (this.text[this.at] !== '"') this.fail('expected a property name in double quotes');
      this.string();
      this.skipSpace();
      if (this.at >= this.text.length) this.fail('unexpected end of input');
      if (this.text[this.at] !== ':') this.fail("expected ':' after a property name");
      this.at++;
      this.skipSpace();
      this.value(depth + 1);
      if (this.closes('}', 'an object')) return;
    }
  }

  array(depth: number): void {
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (;;) {
      this.skipSpace();
      this.value(depth + 1);
      if (this.closes(']', 'an array')) return;
    }
  }

  /** After an item: true at the closing bracket, false after a comma (another item follows). */
  closes(bracket: string, container: string): boolean {
    this.skipSpace();
    const c = this.text[this.at];
    if (c !== ',' && c !== bracket)
      this.fail(c === undefined ? 'unexpected end of input' : `expected ',' or '${bracket}' in ${container}`);
    this.at++;
    return c === bracket;
  }

  string(): void {
    const start = this.at;
    this.at++;
    for (;;) {
      if (this.at >= this.text.length) this.fail('unterminated string', start);
      const code = this.text.charCodeAt(this.at);
      if (code === 0x22) {
        this.at++;
        return;
      }
      if (code < 0x20) this.fail('control character in a string');
      if (code === 0x5c) {
        const next = this.text[this.at + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6)))
            this.fail('bad \\u escape in a string');
          this.at += 6;
          continue;
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) this.fail('bad escape in a string');
        this.at += 2;
        continue;
      }
      this.at++;
    }
  }

  number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 400));
    if (match === null || match[0] === '-' || match[0] === '') this.fail('malformed number');
    this.at += match[0].length;
  }
}

function lineAndColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at && i < text.length; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}
