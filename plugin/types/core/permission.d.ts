import { type Host } from './host';
import { type PermissionRequest, type SessionState } from './state';
/** How long a grant stays usable after `approve`, unless configured (`permission_grant_ttl_hours`). */
export declare const DEFAULT_PERMISSION_GRANT_TTL_HOURS = 24;
/** The most hours a grant may be configured to last (ten years, as the other durations). */
export declare const MAX_PERMISSION_GRANT_TTL_HOURS: number;
/** When the hook turns a request into an inbox item (`permission_inbox`): see docs/permissions.md. */
export declare const PERMISSION_INBOX_MODES: readonly ["background", "always", "off"];
export type PermissionInboxMode = (typeof PERMISSION_INBOX_MODES)[number];
/** A tool call a sub-agent asked permission for, as the host's PermissionRequest names it. */
export interface PermissionAsk {
    readonly tool: string;
    /** The tool's input exactly as the host sent it. */
    readonly input: unknown;
    /** The Claude agent that asked (the payload's `agent_id`). */
    readonly claudeAgentId: string;
    /**
     * The folder the call would run in (the payload's `cwd`, absolute and normalized by the adapter): a relative path
     * or command means what it means there only. Absent when the host did not say.
     */
    readonly cwd?: string;
}
/** Where the asking hook runs: a grant holds only in its session's own project and host. */
export interface PermissionScope {
    readonly project: string;
    readonly host: Host;
}
/** A request's status at `now`: an approved grant past its expiry reads as `expired`. */
export declare function permissionStatus(request: PermissionRequest, now: Date): PermissionRequest['status'];
/** The request the session waits on (the newest pending one), or null. */
export declare function pendingPermission(state: SessionState): PermissionRequest | null;
/** The newest request recorded on the session, or null. */
export declare function lastPermission(state: SessionState): PermissionRequest | null;
/** True when the session can be parked for a permission: it is open and may move to approval (or is there). */
export declare function canPark(state: SessionState): boolean;
/**
 * The session parked with `ask`: the request recorded as pending and the session moved to approval (a pending request
 * of the same session that `ask` replaces expires: the agent was told to stop, so only its last request waits). The
 * same pending request asked again changes nothing (the state itself is returned).
 * @throws SessionError E_ILLEGAL_TRANSITION when the session may not move to approval (final, validating)
 */
export declare function parkForPermission(state: SessionState, ask: PermissionAsk, now: Date): SessionState;
/**
 * The pending request granted (approve): exactly that call, once, until `now + ttlHours`. A session without a pending
 * request is returned as it is (an approval of its plan).
 */
export declare function grantPending(state: SessionState, now: Date, ttlHours: number): SessionState;
/** The pending request refused (reject), with the user's reason; a session without one is returned as it is. */
export declare function refusePending(state: SessionState, reason: string, now: Date): SessionState;
/**
 * The index of the grant that allows `ask` on this session at `now`, or null: a request the user approved, not spent,
 * not expired, of the same tool with a deep-equal input, asked in the same folder (issue 40 item 7: `rm -rf -- *`
 * approved in `build/` is another call in `$HOME`; both without a folder match only each other), on a session of the
 * asking hook's project and host.
 */
export declare function grantFor(state: SessionState, ask: PermissionAsk, scope: PermissionScope, now: Date): number | null;
/**
 * The grant at `index` spent by `claudeAgentId` at `now` (when, by which agent), so it never allows again.
 * @throws SessionError E_ILLEGAL_TRANSITION when it is not an approved, unexpired grant
 */
export declare function spendGrant(state: SessionState, index: number, claudeAgentId: string, now: Date): SessionState;
/**
 * The state with every approved grant past its expiry at `now` stored as `expired`, or the state itself when none is:
 * once seen past its expiry, a grant is never revived by the clock stepping back.
 */
export declare function expireLapsedGrants(state: SessionState, now: Date): SessionState;
/**
 * True when two JSON values are equal: the same primitives, arrays of equal items in order, objects with the same
 * keys (in any order) of equal values. Hand-written rather than a library: core imports nothing but zod, xstate and
 * date-fns (the layer rule), and a tool input is plain JSON.
 */
export declare function jsonEqual(a: unknown, b: unknown): boolean;
/**
 * What Claude Code says of how a sub-agent was launched (measured with 2.1.332, docs/permissions.md): its
 * `agent-<id>.meta.json` (written as it starts) says `requestShape` `background` or `foreground` (what the launch
 * really was: an interactive 2.1.332 runs an Agent call asked with `run_in_background: false` in the background too,
 * and says so); its transcript's rows say `entrypoint`: `cli` for an interactive session, `sdk-cli` for `claude -p`
 * (`sdk-ts`, `sdk-py` for the SDKs). `requestNonInteractive` was true in interactive sessions too: not used. Absent
 * when not known.
 */
export interface AgentLaunchFacts {
    readonly requestShape?: unknown;
    readonly entrypoint?: unknown;
    /** Set by a host that knows it runs without a person (the Agent SDK's permission callback). */
    readonly headless?: boolean;
    /**
     * Claude Code's own word, in the environment it starts each hook with (`CLAUDE_CODE_SESSION_ATTENDED`, 2.1.330 and
     * 2.1.332: `1` in an interactive session, `0` under `claude -p`): known as the hook starts, where the sub-agent's
     * transcript may not be written yet (the race a real `claude -p` play caught, docs/permissions.md).
     */
    readonly attended?: boolean;
}
/**
 * True when a sub-agent's permission request becomes an inbox item under `mode`: `off` never, `always` always,
 * `background` (the default) when nobody can answer it: a headless run (a session Claude Code says nobody attends,
 * else an entrypoint other than the interactive `cli`, or a host that says so). In an interactive session Claude Code
 * asks the user even for a background sub-agent (2.1.330 and 2.1.332 in tmux: tests/host/resume.host.ts), so there
 * nothing changes, whatever the agent's `requestShape`. Unknown facts answer false: Claude Code's own flow decides.
 */
export declare function goesToInbox(mode: PermissionInboxMode, facts: AgentLaunchFacts | null): boolean;
/**
 * The state with every live grant expired (`approved` → `expired`): what `import` and `copy` store, so a grant is made
 * only by `approve` on this store, never by a file brought in (an agent could write one). Pending requests stay
 * pending (the user still decides them); a state without live grants is returned as it is.
 */
export declare function withoutGrants(state: SessionState): SessionState;
