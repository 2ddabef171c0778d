import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isNewer } from '../core/activity';
import { isSessionError } from '../core/errors';
import type { SessionState } from '../core/state';
import { errnoCode, ioError } from '../platform/errno';
import { writeFileAtomic } from '../platform/atomic-file';
import { ensurePrivateDir, isSymbolicLink } from '../platform/private-fs';
import { readRegularFile } from '../platform/strict-read';

/** Our names in the folder: pointers (`<hex>`) and writeFileAtomic's temp files (`.<hex>.<pid>.<hex8>.tmp`). */
const POINTER_NAME = /^[0-9a-f]+$/;
const TEMP_NAME = /^\.[0-9a-f]+\.\d+\.[0-9a-f]{8}\.tmp$/;

/** The folder of the Claude-agent pointers, inside the store root (hidden: listings skip it). */
export const CLAUDE_INDEX_DIR = '.claude-agents';

/** Claude agent ids are short (`a4d2c8f1e0b3a297`); a longer one is looked up by a scan. */
const MAX_ID_BYTES = 100;

/**
 * Pointers from a Claude Code agent id to the session it was attached to (`<root>/.claude-agents/<hex of the id>`),
 * so the hooks need not scan the store. A pointer stays when a later agent resumes that session: it is how a late
 * event of the earlier agent finds the session it had (and leaves it alone) instead of making a second one. The
 * folders stay the source of truth: a pointer is trusted only when the session it names exists and is linked to
 * a Claude agent; otherwise the caller scans for a current link.
 */
export class ClaudeIndex {
  readonly #dir: string;
  readonly #read: (id: string) => SessionState | null;

  /** @param read the store's strict read of one session (E_CORRUPT for a damaged one) */
  constructor(root: string, read: (id: string) => SessionState | null) {
    this.#dir = join(root, CLAUDE_INDEX_DIR);
    this.#read = read;
  }

  /** The session id the pointer names, or null (no pointer, unreadable, or an id too long to index). */
  pointed(claudeAgentId: string): string | null {
    const file = this.#file(claudeAgentId);
    // A linked pointer folder is not read through (the caller scans).
    if (file === null || isSymbolicLink(this.#dir)) return null;
    const id = this.#pointedBy(file);
    return id !== null && id.length > 0 ? id : null;
  }

  /**
   * Points the state's Claude agent at it, when it is linked to one, unless the pointer names another session
   * still linked to that agent and more recently active (the lookup answers the most recently active of several).
   * Called after the session is written, under its lock. A pointer that cannot be written only costs the next
   * lookup a scan, so write failures are not the session write's failure.
   */
  written(state: SessionState): void {
    const agentId = state.claude?.agent_id;
    if (agentId === undefined) return;
    const file = this.#file(agentId);
    if (file === null) return;
    const pointed = this.pointed(agentId);
    if (pointed === state.agent_id) return;
    if (pointed !== null) {
      const other = this.#readQuiet(pointed);
      if (other !== null && other.claude?.agent_id === agentId && isNewer(other, state)) return;
    }
    try {
      ensurePrivateDir(this.#dir, true);
      // No fsync (as the agent pointers): a pointer lost or torn by a crash is not trusted on read, and the scan
      // that answers instead rewrites it. Two disk flushes less on every SubagentStart and SubagentStop that links.
      writeFileAtomic(file, state.agent_id, { durable: false });
    } catch (error) {
      // A link (or a file) in the folder's place: no pointer, never one written through it.
      if (isSessionError(error, 'E_REFUSED')) return;
      const code = errnoCode((error as { cause?: unknown }).cause ?? error);
      if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS' && code !== 'ENOSPC')
        throw ioError(error, 'write', file);
    }
  }

  /**
   * Removes pointers to sessions that no longer exist, and old temp files of killed writers.
   * @returns how many files were removed
   */
  sweep(sessionExists: (id: string) => boolean, isOld: (path: string) => boolean): number {
    let names: string[];
    // readdir would list a linked folder's target: nothing is removed through a link.
    if (isSymbolicLink(this.#dir)) return 0;
    try {
      names = readdirSync(this.#dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return 0;
      throw ioError(error, 'list', this.#dir);
    }
    let removed = 0;
    for (const name of names) {
      // Attach locks (and their breakers) live here too: the store's sweep removes those of dead owners.
      if (name.endsWith('.lock') || name.endsWith('.lock.break')) continue;
      const path = join(this.#dir, name);
      // Only our own names, and never recursively: whatever else is in the folder is not ours to remove.
      if (!POINTER_NAME.test(name) && !TEMP_NAME.test(name)) continue;
      const stale = TEMP_NAME.test(name) ? isOld(path) : !sessionExists(this.#pointedBy(path) ?? '');
      if (stale) {
        rmSync(path, { force: true });
        removed++;
      }
    }
    return removed;
  }

  // --- internal ---

  /** A session, or null when it is absent, invalid or its id is not one (the pointer is then simply replaced). */
  #readQuiet(id: string): SessionState | null {
    try {
      return this.#read(id);
    } catch (error) {
      if (isSessionError(error, 'E_CORRUPT') || isSessionError(error, 'E_USAGE')) return null;
      throw error;
    }
  }

  #pointedBy(path: string): string | null {
    const read = readRegularFile(path);
    return read !== null && 'text' in read ? read.text : null;
  }

  #file(claudeAgentId: string): string | null {
    const bytes = Buffer.from(claudeAgentId, 'utf8');
    if (bytes.length === 0 || bytes.length > MAX_ID_BYTES) return null;
    return join(this.#dir, bytes.toString('hex'));
  }
}
