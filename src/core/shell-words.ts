// The words of a shell command written in a small, inert subset of POSIX shell: plain words, single-quoted texts,
// double-quoted texts without expansions, and backslash-escaped characters. Anything a shell would act on (`;`,
// `&`, `|`, `<`, `>`, `(`, `)`, `$`, backticks, globs, `~`, `#`, `!`, `{`, `}`, a newline) makes the text "not
// plain": null. Hand-written on purpose: this decides what a sub-agent may run without a prompt, and a general shell
// parser (shell-quote and the like) reads some texts differently from bash (a parser differential is the known defect
// of that approach); a grammar this small is read the same way by every POSIX shell.

/** Characters of an unquoted word that no POSIX shell treats specially. */
const PLAIN = /[A-Za-z0-9_@%+=:,./-]/;
/** Characters a double-quoted text may not hold: expansions (`$`, backticks), escapes (`\`), history (`!`). */
const ACTIVE_IN_DOUBLE_QUOTES = /[$`\\!]/;

/**
 * The words of `command` when it is plain (see the module comment), else null. Words are separated by spaces or
 * tabs; quotes join and end inside a word as in sh (`--x='a b'c` is one word, `--x=a bc`).
 */
export function plainWords(command: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return null;
      const quoted = command.slice(i + 1, end);
      if (quoted.includes('\n') || quoted.includes('\r') || quoted.includes('\0')) return null;
      word = (word ?? '') + quoted;
      i = end;
    } else if (c === '"') {
      const end = command.indexOf('"', i + 1);
      if (end < 0) return null;
      const quoted = command.slice(i + 1, end);
      if (ACTIVE_IN_DOUBLE_QUOTES.test(quoted) || /[\n\r\0]/.test(quoted)) return null;
      word = (word ?? '') + quoted;
      i = end;
    } else if (c === '\\') {
      // An escaped character is itself, whatever it is, except a newline (a line continuation).
      const next = command[i + 1];
      if (next === undefined || next === '\n' || next === '\r' || next === '\0') return null;
      word = (word ?? '') + next;
      i++;
    } else if (PLAIN.test(c)) {
      if (c === '=' && word === null) return null;
      word = (word ?? '') + c;
    } else {
      return null;
    }
  }
  if (word !== null) words.push(word);
  return words;
}
