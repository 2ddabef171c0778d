import { assertCoherent } from './coherence';
import { SessionError, show } from './errors';
import { parseState, type SessionState } from './state';

/** The format tag of an export document; a new layout gets a new number. */
export const EXPORT_FORMAT = 'agent-session/1';

/** One exported session. */
export interface ExportDocument {
  readonly format: typeof EXPORT_FORMAT;
  readonly exported_at: string;
  readonly session: SessionState;
}

/**
 * How deep an export document may nest: far past what a session holds (its metadata nests at most
 * MAX_METADATA_DEPTH levels, refused past that by the session's own checks, exit 4), well within what those checks,
 * which recurse, can walk.
 */
export const MAX_EXPORT_DEPTH = 1000;

/** Wraps a session into an export document. */
export function toExport(state: SessionState, now: Date): ExportDocument {
  return { format: EXPORT_FORMAT, exported_at: now.toISOString(), session: state };
}

/**
 * Validates parsed JSON as an export document; the session is checked with the store's own schema, and must
 * also be coherent (see assertCoherent): a session the machine could never have produced is refused.
 * @throws SessionError E_USAGE when it is not an export document, E_CORRUPT when the session is invalid
 */
export function parseExport(raw: unknown, source: string): ExportDocument {
  // First: every check below (and the message naming the value) walks the value by recursion, which a document
  // nested a million levels deep would overflow (`Maximum call stack size exceeded`, exit 5).
  if (nestedDeeperThan(raw, MAX_EXPORT_DEPTH))
    throw new SessionError(
      'E_USAGE',
      `Expected ${source} to be an export document nested at most ${MAX_EXPORT_DEPTH} levels deep, got deeper`,
    );
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SessionError(
      'E_USAGE',
      `Expected ${source} to hold an export document (a JSON object), got ${Array.isArray(raw) ? 'an array' : show(raw)}`,
    );
  }
  const document = raw as Record<string, unknown>;
  if (document.format !== EXPORT_FORMAT) {
    throw new SessionError(
      'E_USAGE',
      `Expected \`format\` in ${source} to be \`${EXPORT_FORMAT}\`, got ${show(document.format ?? null)}`,
    );
  }
  const exportedAt = document.exported_at;
  if (typeof exportedAt !== 'string' || !Number.isFinite(Date.parse(exportedAt))) {
    throw new SessionError(
      'E_USAGE',
      `Expected \`exported_at\` in ${source} to be an ISO 8601 time, got ${show(exportedAt ?? null)}`,
    );
  }
  let session: SessionState;
  try {
    session = parseState(document.session);
    // The store reads hand-edited files to report them; an import is stricter: only what the machine could produce.
    assertCoherent(session);
  } catch (error) {
    if (error instanceof SessionError)
      throw new SessionError('E_CORRUPT', `The session in ${source} is invalid: ${error.message}`);
    throw error;
  }
  return { format: EXPORT_FORMAT, exported_at: exportedAt, session };
}

// --- internal ---

/** Whether parsed JSON nests deeper than `limit` (arrays and objects), walked without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
