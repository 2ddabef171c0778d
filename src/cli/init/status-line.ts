import { join } from 'node:path';
import { textOrNull } from '../../platform/files';
import { nodeCommand } from './settings';

// What `init` offers for Claude Code's status line (`agent-session statusline`, docs/claude-code.md#status-line): a
// line to paste, never a write. A status line is one per user, often one of their own: init does not take it over.

/** The settings files Claude Code reads a `statusLine` from, for `project` and the user whose home is `home`. */
export function statusLineFiles(project: string, home: string | undefined): string[] {
  return [
    join(project, '.claude', 'settings.local.json'),
    join(project, '.claude', 'settings.json'),
    ...(home === undefined || home === '' ? [] : [join(home, '.claude', 'settings.json')]),
  ];
}

/**
 * The line `init` says of the status line: where one is set already, that it is kept (with where to read how to show
 * ours beside it); else the setting to paste, naming this node and CLI by absolute path as the hooks do. A file that
 * cannot be read or parsed counts as having none.
 */
export function statusLineOffer(files: readonly string[], node: string, cli: string): string {
  const set = files.find((file) => hasStatusLine(file));
  if (set !== undefined)
    return `Status line: yours in ${set} is kept (to show what waits beside it: docs/claude-code.md#status-line)`;
  const setting = { statusLine: { type: 'command', command: `${nodeCommand(node, cli)} statusline` } };
  return `Status line (optional: parked sessions and decisions waiting, under the prompt), in ~/.claude/settings.json: ${JSON.stringify(setting)}`;
}

function hasStatusLine(file: string): boolean {
  let text: string | null;
  try {
    text = textOrNull(file);
  } catch {
    return false;
  }
  if (text === null || !text.includes('statusLine')) return false;
  try {
    const settings = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
    return typeof settings === 'object' && settings !== null && 'statusLine' in settings;
  } catch {
    return false;
  }
}
