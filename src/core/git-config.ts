/**
 * The URL of a remote in a git config file's text (`.git/config`), read as git reads it: sections `[remote "origin"]`
 * (the subsection case-sensitive) or the older `[remote.origin]`, keys case-insensitive, values quoted or not, with
 * git's escapes, comments after `#` or `;` and lines continued by a final backslash. The first `url` wins, as
 * `git remote get-url` answers. Includes (`[include]`) and `url.<base>.insteadOf` rewrites are not followed: the URL
 * is as written. Pure: the caller reads the file (platform/git.ts).
 * @returns the URL, or null when the remote has none
 */
export function remoteUrlOf(configText: string, remote = 'origin'): string | null {
  let inRemote = false;
  const lines = logicalLines(configText);
  for (const line of lines) {
    const header = /^\s*\[([^\]]*)\]\s*(.*)$/.exec(line);
    let body = line;
    if (header !== null) {
      inRemote = isRemoteSection(header[1]!, remote);
      // A key may follow the header on its line (`[core] bare = false`).
      body = header[2]!;
    }
    if (!inRemote) continue;
    const entry = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(body);
    if (entry === null || entry[1]!.toLowerCase() !== 'url' || entry[2] === undefined) continue;
    const value = valueOf(entry[2]);
    if (value !== '') return value;
  }
  return null;
}

// --- internal ---

/** Physical lines joined where a line ends in an unescaped backslash outside quotes is continued. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (/(^|[^\\])(\\\\)*\\$/.test(raw)) {
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
  const quoted = /^\s*([A-Za-z0-9.-]+)\s+"((?:[^"\\]|\\.)*)"\s*$/.exec(header);
  if (quoted !== null) return quoted[1]!.toLowerCase() === 'remote' && quoted[2]!.replace(/\\(.)/g, '$1') === remote;
  const dotted = /^\s*([A-Za-z0-9-]+)\.(.+?)\s*$/.exec(header);
  return dotted !== null && dotted[1]!.toLowerCase() === 'remote' && dotted[2]!.toLowerCase() === remote.toLowerCase();
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
      out += pendingSpace + ({ n: '\n', t: '\t', b: '\b' }[next] ?? next);
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
