import { type SessionState } from './state';
/**
 * The hosts whose hooks make sessions: Claude Code, the OpenAI Codex CLI, the Claude Agent SDK (in-process) and
 * opencode (its in-process plugin). The state's `host` field names one (schema_version 6; 11 for opencode).
 */
export declare const HOSTS: readonly ["claude-code", "codex", "agent-sdk", "opencode"];
/** A host whose hooks make sessions (HOSTS). */
export type Host = (typeof HOSTS)[number];
/**
 * The host of a session without a `host` field: Claude Code. Before there was a field, only Claude Code's hooks (and
 * the seed protocol and the CLI, written for it) made sessions, so an older store's sessions are its; and a session
 * Claude Code makes now still names none, so its file stays readable by an older agent-session.
 */
export declare const DEFAULT_HOST: Host;
/** True for a host's name (HOSTS). */
export declare function isHost(value: unknown): value is Host;
/** The host a session belongs to: its `host` field, else DEFAULT_HOST (above). */
export declare function hostOf(state: Pick<SessionState, 'host'>): Host;
/**
 * The state naming `host`: the default host is written as no field (see DEFAULT_HOST), any other as `host`, with the
 * schema_version the content then needs.
 */
export declare function withHost(state: SessionState, host: Host): SessionState;
