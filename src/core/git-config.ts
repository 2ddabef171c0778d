/**
 * The URL of a remote in a git config file's text (`.git/config`), read as git reads it: sections `[remote "origin"]`
 * (the subsection case-sensitive) or the older `[remote.origin]`, keys case-insensitive, values quoted or not, with
 * git's escapes, comments after `#` or `;` and lines continued by a final backslash. The first `url` wins, as
 * `git remote get-url` answers. Includes (`[include]`) and `url.<base>.insteadOf` rewrites are not followed: the URL
 * is as written. Pure: the caller reads the file (platform/git.ts). Written with string scans, not regular
 * expressions: it runs on every hook call, where compiling each expression costs more than the scan.
 * @returns the URL, or null when the remote has none
 */
export function remoteUrlOf(configText: string, remote = 'origin'): string | null {
  let inRemote = false;
  for (const line of logicalLines(configText)) {
    let body = line.trimStart();
    if (body.startsWith('[')) {
      const close = body.indexOf(']');
      if (close === -1) continue;
      inRemote = isRemoteSection(body.slice(1, close), remote);
      // A key may follow the header on its line (`[core] bare = false`).
      body = body.slice(close + 1).trimStart();
    }
    if (!inRemote || body.length < 3 || body.slice(0, 3).toLowerCase() !== 'url') continue;
    const rest = body.slice(3).trimStart();
    if (!rest.startsWith('=')) continue;
    const value = valueOf(rest.slice(1));
    if (value !== '') return value;
  }
  return null;
}

// --- internal ---

/** Physical lines, joined where a line ends in a backslash that is not itself escaped (a continued value). */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (let raw of (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n')) {
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    let slashes = 0;
    while (slashes < raw.length && raw[raw.length - 1 - slashes] === '\\') slashes++;
    if (slashes % 2 === 1) {
      current += raw.slice(0, -1);
      continue;
    }
    lines.push(current + raw);
    current = '';
  }
  if (current !== '') lines.push(current);
  return lines;
}

/** `remote "origin"` (subsection as written) or `remote.origin` (the older form, compared lower-cased). */
function isRemoteSection(header: string, remote: string): boolean {
  const text = header.trim();
  const quote = text.indexOf('"');
  if (quote !== -1) {
    if (text.slice(0, quote).trim().toLowerCase() !== 'remote' || !text.endsWith('"') || text.length === quote + 1)
      return false;
    const name = text.slice(quote + 1, -1);
    return (name.includes('\\') ? name.replace(/\\(.)/g, '$1') : name) === remote;
  }
  const dot = text.indexOf('.');
  return (
    dot !== -1 &&
    text.slice(0, dot).toLowerCase() === 'remote' &&
    text.slice(dot + 1).toLowerCase() === remote.toLowerCase()
  );
}

/** A value as git reads it: quotes removed, escapes applied, a comment outside quotes dropped, outer blanks trimmed. */
function valueOf(raw: string): string {
  let out = '';
  let quoted = false;
  let pendingSpace = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[++i]!;
      out += pendingSpace + (next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : next);
      pendingSpace = '';
      continue;
    }
    if (c === '"') {
      out += pendingSpace;
      pendingSpace = '';
      quoted = !quoted;
      continue;
    }
    if (!quoted && (c === '#' || c === ';')) break;
    if (!quoted && (c === ' ' || c === '\t')) {
      // Blanks inside a value are kept, at its ends dropped.
      if (out !== '') pendingSpace += c;
      continue;
    }
    out += pendingSpace + c;
    pendingSpace = '';
  }
  return out;
}
