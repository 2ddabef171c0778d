import { pickupShape } from './rules';
import { versionFor, type Decision, type PermissionRequest, type SessionState } from './state';

// Issue 40 item 3: decisions and grants count only when made here. Each decision and each grant `approve` makes is
// sealed with an HMAC under a key in the user's data folder (platform/decision-key.ts); a state read from a file store
// is judged here: what does not check out (a state.json that came by git clone, a hand copy, an agent's write) is
// marked `unverified` and counts for nothing. Pure: the MAC itself is computed at the edge and comes in as functions.

/**
 * The text a decision's MAC is over: what the decision says (verdict, who, where, when, the note, where it sent the
 * session, since when it waited) and the session it was made on. `imported` is left out: a decision made here and
 * brought back by `import` is still this machine's.
 */
export function decisionSealText(state: Pick<SessionState, 'agent_id'>, decision: Decision): string {
  const origin = decision.origin;
  return canonicalJson([
    'agent-session decision 1',
    state.agent_id,
    decision.decision,
    decision.by,
    decision.at,
    decision.note ?? null,
    decision.to_phase,
    decision.waiting_since,
    origin === undefined ? null : [origin.os_user, origin.terminal, origin.claimed, origin.via ?? null],
  ]);
}

/**
 * The text a grant's MAC is over: the session, the exact call (tool, input as canonical JSON, the folder), who asked it
 * and when, and when it was granted until.
 */
export function grantSealText(state: Pick<SessionState, 'agent_id'>, request: PermissionRequest): string {
  return canonicalJson([
    'agent-session grant 1',
    state.agent_id,
    request.tool,
    request.input ?? null,
    request.cwd ?? null,
    request.at,
    request.claude_agent_id,
    request.decided_at ?? null,
    request.expires_at ?? null,
  ]);
}

/**
 * `after` (approveState's or rejectState's result on `before`) with its new decision and its new grant sealed: the
 * decision appended since `before`, and each request `before` had pending that is approved now.
 */
export function sealNew(before: SessionState, after: SessionState, sign: (text: string) => string): SessionState {
  const known = before.decisions?.length ?? 0;
  const decisions = after.decisions?.map((decision, index) =>
    index < known ? decision : { ...withoutMarks(decision), mac: sign(decisionSealText(after, decision)) },
  );
  const was = before.permission_requests ?? [];
  const requests = after.permission_requests?.map((request, index) =>
    request.status === 'approved' && was[index]?.status === 'pending'
      ? { ...withoutMarks(request), mac: sign(grantSealText(after, request)) }
      : request,
  );
  const sealed = {
    ...after,
    ...(decisions === undefined ? {} : { decisions }),
    ...(requests === undefined ? {} : { permission_requests: requests }),
  };
  return { ...sealed, schema_version: versionFor(sealed) };
}

/**
 * The state as this machine counts it (`verify` checks a MAC under its user's key): each decision and each approved
 * request whose MAC does not check out is marked `unverified` (one that does is unmarked), so it never counts
 * (rules.ts awaitsPickup, permission.ts grantFor) and every view says so. A session an unverified approval moved on
 * and nothing since (approval → executing, waiting for its agent) reads as still waiting in approval, its unverified
 * grant pending: the user decides again. A state with nothing to judge is returned as it is (no MAC computed).
 */
export function countedHere(state: SessionState, verify: (text: string, mac: string) => boolean): SessionState {
  const decisions = state.decisions;
  const requests = state.permission_requests;
  const judged = (decisions?.length ?? 0) > 0 || (requests ?? []).some((request) => request.status === 'approved');
  if (!judged) return state;
  const holds = (text: string, mac: string | undefined) => mac !== undefined && verify(text, mac);
  const marked: SessionState = {
    ...state,
    ...(decisions === undefined
      ? {}
      : { decisions: decisions.map((d) => marking(d, holds(decisionSealText(state, d), d.mac))) }),
    ...(requests === undefined
      ? {}
      : {
          permission_requests: requests.map((r) =>
            r.status !== 'approved' ? withoutMarks(r) : marking(r, holds(grantSealText(state, r), r.mac)),
          ),
        }),
  };
  const last = marked.decisions?.at(-1);
  return last?.unverified === true && pickupShape(marked) ? reopened(marked) : marked;
}

/** The state without the `unverified` marks (what a store writes: they are judged on every read, never kept). */
export function withoutUnverifiedMarks(state: SessionState): SessionState {
  const marked = (item: { readonly unverified?: true }) => item.unverified !== undefined;
  if (!(state.decisions ?? []).some(marked) && !(state.permission_requests ?? []).some(marked)) return state;
  return {
    ...state,
    ...(state.decisions === undefined ? {} : { decisions: state.decisions.map(withoutMarks) }),
    ...(state.permission_requests === undefined
      ? {}
      : { permission_requests: state.permission_requests.map(withoutMarks) }),
  };
}

/**
 * JSON with every object's keys sorted (recursively), so equal values give equal texts whatever their key order (a
 * tool input is compared deep-equal, not by its text).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

// --- internal ---

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort())
    Object.defineProperty(sorted, key, {
      value: sortedKeys(source[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return sorted;
}

function marking<T extends { readonly unverified?: true }>(item: T, holds: boolean): T {
  if (holds) return withoutMarks(item);
  return item.unverified === true ? item : { ...item, unverified: true };
}

function withoutMarks<T extends { readonly unverified?: true }>(item: T): T {
  if (item.unverified === undefined) return item;
  const { unverified: _unverified, ...rest } = item;
  return rest as T;
}

/**
 * A session an unverified approval moved to executing, as still waiting in approval: that move dropped from its
 * history, and its newest unverified grant pending again (its decision's times and MAC dropped).
 */
function reopened(state: SessionState): SessionState {
  const requests = state.permission_requests ?? [];
  let newest = -1;
  requests.forEach((request, index) => {
    if (request.status === 'approved' && request.unverified === true) newest = index;
  });
  const pending = requests.map((request, index) => {
    if (index !== newest) return request;
    const { decided_at: _decided, expires_at: _expires, mac: _mac, unverified: _unverified, ...asked } = request;
    return { ...asked, status: 'pending' as const };
  });
  return {
    ...state,
    phase: 'approval',
    resume_ready: true,
    history: state.history.slice(0, -1),
    ...(state.permission_requests === undefined ? {} : { permission_requests: pending }),
  };
}
