import { SessionError } from './errors';
import { hostOf, type Host } from './host';
import { isFinalPhase } from './phase-names';
import { allowedTargets } from './phases';
import { applyChange } from './session';
import { versionFor, type PermissionRequest, type SessionState } from './state';

// Issue 33: a sub-agent's permission request that nobody can answer (a background sub-agent, a headless run) becomes
// an inbox item. Its session records the request and waits in approval; the user's `approve` grants exactly that call
// (same tool, deep-equal input) once, on that session, until an expiry; the identical call, asked again by the agent
// that resumes the session, is allowed and the grant spent. Pure: the clock and the scope come in.

/** How long a grant stays usable after `approve`, unless configured (`permission_grant_ttl_hours`). */
export const DEFAULT_PERMISSION_GRANT_TTL_HOURS = 24;

/** The most hours a grant may be configured to last (ten years, as the other durations). */
export const MAX_PERMISSION_GRANT_TTL_HOURS = 24 * 3653;

/** When the hook turns a request into an inbox item (`permission_inbox`): see docs/permissions.md. */
export const PERMISSION_INBOX_MODES = ['background', 'always', 'off'] as const;
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
export function permissionStatus(request: PermissionRequest, now: Date): PermissionRequest['status'] {
  if (request.status === 'approved' && isPast(request.expires_at, now)) return 'expired';
  return request.status;
}

/** The request the session waits on (the newest pending one), or null. */
export function pendingPermission(state: SessionState): PermissionRequest | null {
  const requests = state.permission_requests ?? [];
  for (let index = requests.length - 1; index >= 0; index--) {
    if (requests[index]!.status === 'pending') return requests[index]!;
  }
  return null;
}

/** The newest request recorded on the session, or null. */
export function lastPermission(state: SessionState): PermissionRequest | null {
  return state.permission_requests?.at(-1) ?? null;
}

/** True when the session can be parked for a permission: it is open and may move to approval (or is there). */
export function canPark(state: SessionState): boolean {
  return !isFinalPhase(state.phase) && (state.phase === 'approval' || allowedTargets(state.phase).includes('approval'));
}

/**
 * The session parked with `ask`: the request recorded as pending and the session moved to approval (a pending request
 * of the same session that `ask` replaces expires: the agent was told to stop, so only its last request waits). The
 * same pending request asked again changes nothing (the state itself is returned).
 * @throws SessionError E_ILLEGAL_TRANSITION when the session may not move to approval (final, validating)
 */
export function parkForPermission(state: SessionState, ask: PermissionAsk, now: Date): SessionState {
  const pending = pendingPermission(state);
  if (pending !== null && sameCall(pending, ask) && pending.claude_agent_id === ask.claudeAgentId) return state;
  if (!canPark(state)) {
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Cannot park session \`${state.agent_id}\` for a permission: it is in phase \`${state.phase}\``,
    );
  }
  const moved = state.phase === 'approval' ? state : applyChange(state, { phase: 'approval' }, now);
  const at = now.toISOString();
  const request: PermissionRequest = {
    tool: ask.tool,
    input: ask.input,
    at,
    claude_agent_id: ask.claudeAgentId,
    ...(ask.cwd === undefined ? {} : { cwd: ask.cwd }),
    status: 'pending',
  };
  const kept = (state.permission_requests ?? []).map((old) =>
    old.status === 'pending' ? { ...old, status: 'expired' as const, decided_at: at } : old,
  );
  return withRequests({ ...moved, last_updated: at }, [...kept, request]);
}

/**
 * The pending request granted (approve): exactly that call, once, until `now + ttlHours`. A session without a pending
 * request is returned as it is (an approval of its plan).
 */
export function grantPending(state: SessionState, now: Date, ttlHours: number): SessionState {
  return decidePending(state, (request) => ({
    ...request,
    status: 'approved',
    decided_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlHours * HOUR_MS).toISOString(),
  }));
}

/** The pending request refused (reject), with the user's reason; a session without one is returned as it is. */
export function refusePending(state: SessionState, reason: string, now: Date): SessionState {
  return decidePending(state, (request) => ({ ...request, status: 'rejected', decided_at: now.toISOString(), reason }));
}

/**
 * The index of the grant that allows `ask` on this session at `now`, or null: a request the user approved, not spent,
 * not expired, of the same tool with a deep-equal input, asked in the same folder (issue 40 item 7: `rm -rf -- *`
 * approved in `build/` is another call in `$HOME`; both without a folder match only each other), on a session of the
 * asking hook's project and host.
 */
export function grantFor(state: SessionState, ask: PermissionAsk, scope: PermissionScope, now: Date): number | null {
  if (state.project !== undefined && state.project !== scope.project) return null;
  if (hostOf(state) !== scope.host) return null;
  const requests = state.permission_requests ?? [];
  for (let index = requests.length - 1; index >= 0; index--) {
    const request = requests[index]!;
    // A grant not verified here (core/seal.ts: a state.json that came by git clone, a copy, an agent) allows nothing.
    if (permissionStatus(request, now) === 'approved' && request.unverified !== true && sameCall(request, ask))
      return index;
  }
  return null;
}

/**
 * The grant at `index` spent by `claudeAgentId` at `now` (when, by which agent), so it never allows again.
 * @throws SessionError E_ILLEGAL_TRANSITION when it is not an approved, unexpired grant
 */
export function spendGrant(state: SessionState, index: number, claudeAgentId: string, now: Date): SessionState {
  const requests = state.permission_requests ?? [];
  const request = requests[index];
  if (request === undefined || permissionStatus(request, now) !== 'approved') {
    throw new SessionError('E_ILLEGAL_TRANSITION', `No usable grant ${index} on session \`${state.agent_id}\``);
  }
  const spent: PermissionRequest = {
    ...request,
    status: 'spent',
    spent_at: now.toISOString(),
    spent_by: claudeAgentId,
  };
  return withRequests(
    state,
    requests.map((old, at) => (at === index ? spent : old)),
  );
}

/**
 * The state with every approved grant past its expiry at `now` stored as `expired`, or the state itself when none is:
 * once seen past its expiry, a grant is never revived by the clock stepping back.
 */
export function expireLapsedGrants(state: SessionState, now: Date): SessionState {
  const requests = state.permission_requests;
  const lapsed = (request: PermissionRequest) =>
    permissionStatus(request, now) === 'expired' && request.status === 'approved';
  if (requests === undefined || !requests.some(lapsed)) return state;
  return withRequests(
    state,
    requests.map((request) => (lapsed(request) ? { ...request, status: 'expired' as const } : request)),
  );
}

/**
 * True when two JSON values are equal: the same primitives, arrays of equal items in order, objects with the same
 * keys (in any order) of equal values. Hand-written rather than a library: core imports nothing but zod, xstate and
 * date-fns (the layer rule), and a tool input is plain JSON.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => jsonEqual(item, other[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}

// --- internal ---

const HOUR_MS = 3_600_000;

function isPast(timestamp: string | undefined, now: Date): boolean {
  return timestamp !== undefined && Date.parse(timestamp) <= now.getTime();
}

/** The same tool, a deep-equal input, and the same folder (exact: the adapter normalized both). */
function sameCall(request: Pick<PermissionRequest, 'tool' | 'input' | 'cwd'>, ask: PermissionAsk): boolean {
  return request.tool === ask.tool && request.cwd === ask.cwd && jsonEqual(request.input, ask.input);
}

function decidePending(state: SessionState, decide: (request: PermissionRequest) => PermissionRequest): SessionState {
  const pending = pendingPermission(state);
  if (pending === null) return state;
  return withRequests(
    state,
    (state.permission_requests ?? []).map((request) => (request === pending ? decide(request) : request)),
  );
}

function withRequests(state: SessionState, requests: PermissionRequest[]): SessionState {
  const next = { ...state, permission_requests: requests };
  return { ...next, schema_version: versionFor(next) };
}

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
export function goesToInbox(mode: PermissionInboxMode, facts: AgentLaunchFacts | null): boolean {
  if (mode === 'off') return false;
  if (mode === 'always') return true;
  if (facts === null) return false;
  if (facts.headless === true) return true;
  if (facts.attended !== undefined) return !facts.attended;
  return typeof facts.entrypoint === 'string' && facts.entrypoint !== '' && facts.entrypoint !== 'cli';
}

/**
 * The state with every live grant expired (`approved` → `expired`): what `import` and `copy` store, so a grant is made
 * only by `approve` on this store, never by a file brought in (an agent could write one). Pending requests stay
 * pending (the user still decides them); a state without live grants is returned as it is.
 */
export function withoutGrants(state: SessionState): SessionState {
  const requests = state.permission_requests;
  if (requests === undefined || !requests.some((request) => request.status === 'approved')) return state;
  return withRequests(
    state,
    requests.map((request) =>
      request.status === 'approved'
        ? { ...request, status: 'expired' as const, reason: 'brought in by import or copy' }
        : request,
    ),
  );
}
