import { spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { claimMarker } from './once-marker';
import { ensurePrivateDir, PRIVATE_FILE } from './private-fs';

/**
 * Starts `command args…` detached from this process (its own process group, not waited for, not holding this process
 * open), its stdout and stderr appended to `logFile` (created 0600 in a 0700 folder made when absent; never through a
 * link). A failure to start is
 * swallowed: the caller's own work (a hook's answer, a command's) must not depend on it.
 */
export function spawnDetached(
  command: string,
  args: readonly string[],
  options: { cwd: string | undefined; env: Readonly<Record<string, string | undefined>>; logFile: string },
): void {
  let fd: number | undefined;
  try {
    ensurePrivateDir(dirname(options.logFile), true);
    fd = openSync(
      options.logFile,
      constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW,
      PRIVATE_FILE,
    );
    const child = spawn(command, [...args], {
      detached: true,
      stdio: ['ignore', fd, fd],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: options.env as NodeJS.ProcessEnv,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Not started (no log folder, a link at the log's name, no process left): told nowhere, as the hook's own log
    // line says what happened to the call itself.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Claims `key` once in the folder `dir` (created 0700): true for the first caller, on any process of this machine,
 * false for every later one. The marker is an empty file named by the key's SHA-256.
 * @throws SessionError E_IO when the folder cannot be made or the marker written for another reason than existing
 */
export function claimOnce(dir: string, key: string): boolean {
  return claimMarker(dir, createHash('sha256').update(key).digest('hex').slice(0, 32));
}
