import { type SessionState } from './state';
/** The format tag of an export document; a new layout gets a new number. */
export declare const EXPORT_FORMAT = "agent-session/1";
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
export declare const MAX_EXPORT_DEPTH = 1000;
/** Wraps a session into an export document. */
export declare function toExport(state: SessionState, now: Date): ExportDocument;
/**
 * Validates parsed JSON as an export document; the session is checked with the store's own schema, and must
 * also be coherent (see assertCoherent): a session the machine could never have produced is refused.
 * @throws SessionError E_USAGE when it is not an export document, E_CORRUPT when the session is invalid
 */
export declare function parseExport(raw: unknown, source: string): ExportDocument;
