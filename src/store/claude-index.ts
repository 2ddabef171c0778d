import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isNewer } from '../core/activity';
import { isSessionError } from '../core/errors';
import type { SessionState } from '../core/state';
import { errnoCode, ioError, readRegularFile, writeFileAtomic } from './fs-safe';

/** The folder of the Claude-agent pointers, inside the store root (hidden: listings skip it). */
export const CLAUDE_INDEX_DIR = '.claude-agents';

/** Claude agent ids are short (`a4d2c8f1e0b3a297`); a longer one is looked up by a scan. */
const MAX_ID_BYTES = 100;

/**
 * Pointers from a Claude Code agent id to the session linked to it (`<root>/.claude-agents/<hex of the id>`),
 * so SubagentStop and PostToolUse need not scan the store. The folders stay the source of truth: a pointer is
 * trusted only when the session it names exists and is still linked to that agent; otherwise the caller scans.
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
    if (file === null) return null;
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
      mkdirSync(this.#dir, { recursive: true });
      writeFileAtomic(file, state.agent_id);
    } catch (error) {
      const code = errnoCode((error as { cause?: unknown }).cause ?? error);
      if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS' && code !== 'ENOSPC') throw ioError(error, 'write', file);
    }
  }

  /**
   * Removes pointers to sessions that no longer exist, and old temp files of killed writers.
   * @returns how many files were removed
   */
  sweep(sessionExists: (id: string) => boolean, isOld: (path: string) => boolean): number {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return 0;
      throw ioError(error, 'list', this.#dir);
    }
    let removed = 0;
    for (const name of names) {
      const path = join(this.#dir, name);
      const stale = name.endsWith('.tmp') ? isOld(path) : !sessionExists(this.#pointedBy(path) ?? '');
      if (stale) {
        rmSync(path, { recursive: true, force: true });
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
