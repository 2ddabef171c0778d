import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The hook log folder: `AGENT_SESSION_LOG_DIR`, else the `logs` folder beside the store root
 * (`<project>/.claude/logs` for the default root `<project>/.claude/session`).
 */
export function logDirFor(root: string, env: Readonly<Record<string, string | undefined>>): string {
  const explicit = env.AGENT_SESSION_LOG_DIR;
  return explicit !== undefined && explicit.trim() !== '' ? explicit : join(dirname(root), 'logs');
}

/**
 * Appends one line to `<dir>/<file>`. A hook must never fail its host because of its log, so a failed
 * write is reported on stderr (the host's debug log) and otherwise ignored.
 */
export function appendLog(dir: string, file: string, line: string): void {
  const path = join(dir, file);
  try {
    mkdirSync(dir, { recursive: true });
    appendFileSync(path, `${new Date().toISOString()} ${line.replace(/[\r\n]+/g, ' ')}\n`);
  } catch (error) {
    process.stderr.write(`agent-session: could not write log ${path}: ${(error as Error).message}\n`);
  }
}
