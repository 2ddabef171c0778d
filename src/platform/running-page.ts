import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file';
import { errnoCode } from './errno';
import { ensurePrivateDir } from './private-fs';
import { readRegularFile } from './strict-read';

// Where a running `agent-session serve` says its page is, so that the notifiers of the same store root (a hook's
// detached `notify`, which may sweep before serve does) link their message to the decision on that page. Kept in the
// user's data folder, outside every workspace: a record an agent or a commit could write would send the reader of a
// notification to a page of its choosing. It holds the port and the server's pid, never the token.

/** A running server's page: its port on 127.0.0.1, and the process that serves it. */
export interface RunningPage {
  readonly port: number;
  readonly pid: number;
}

/**
 * Records that the `serve` of `key` (its store root's log folder) listens on `page.port`, in `dataFolder` (0700
 * folders, a 0600 file); returns how to remove the record, which it does only while the record is still its own.
 * @throws SessionError E_IO, E_REFUSED (a folder that is a link)
 */
export function recordRunningPage(dataFolder: string, key: string, page: RunningPage): () => void {
  ensurePrivateDir(join(dataFolder, 'pages'), true);
  const file = recordFile(dataFolder, key);
  writeFileAtomic(file, JSON.stringify({ port: page.port, pid: page.pid }), { durable: false });
  return () => {
    if (readRecord(file)?.pid === page.pid) rmSync(file, { force: true });
  };
}

/** The page the `serve` of `key` recorded, while that process runs; null when none runs (or the record is not sound). */
export function runningPage(dataFolder: string, key: string): RunningPage | null {
  const record = readRecord(recordFile(dataFolder, key));
  if (record === null) return null;
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    // ESRCH: gone; EPERM: the pid is now another user's process, not the server that wrote the record.
    if (errnoCode(error) === 'ESRCH' || errnoCode(error) === 'EPERM') return null;
    throw error;
  }
  return record;
}

// --- internal ---

function recordFile(dataFolder: string, key: string): string {
  return join(dataFolder, 'pages', `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
}

function readRecord(file: string): RunningPage | null {
  const read = readRegularFile(file);
  if (read === null || 'problem' in read) return null;
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch {
    return null;
  }
  const { port, pid } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65_535) return null;
  if (!Number.isInteger(pid) || (pid as number) < 1) return null;
  return { port: port as number, pid: pid as number };
}
