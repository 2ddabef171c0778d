import fc from 'fast-check';
import { codeOf } from '../../helpers';
import { approveState, rejectState } from '../../../src/core/decision';
import {
  canPark,
  expireLapsedGrants,
  goesToInbox,
  grantFor,
  jsonEqual,
  lastPermission,
  parkForPermission,
  pendingPermission,
  permissionStatus,
  spendGrant,
  type PermissionAsk,
} from '../../../src/core/permission';
import { applyChange, finalizeState, newSession } from '../../../src/core/session';
import {
  parseState,
  PERMISSION_FOLDER_SCHEMA_VERSION,
  PERMISSION_SCHEMA_VERSION,
  PROJECT_SCHEMA_VERSION,
  type SessionState,
} from '../../../src/core/state';
import { withHost } from '../../../src/core/host';
import { AT_TERMINAL } from '../../support/origin';

const t0 = new Date('2026-11-28T06:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const executing = (): SessionState =>
  applyChange(
    newSession({ agent_id: 'agent-1', agent_name: 'writer', purpose: 'p', project: 'proj' }, t0),
    { phase: 'executing' },
    at(1),
  );
const ask: PermissionAsk = {
  tool: 'Bash',
  input: { command: 'touch FILE', description: 'make it' },
  claudeAgentId: 'a0000000000000001',
};
const scope = { project: 'proj', host: 'claude-code' } as const;
const roundTrip = (state: SessionState) => parseState(JSON.parse(JSON.stringify(state)));

describe('parkForPermission', () => {
  it('records the request pending and moves the session to approval, schema 8', () => {
    const parked = parkForPermission(executing(), ask, at(2));
    expect(parked.phase).toBe('approval');
    expect(parked.schema_version).toBe(PERMISSION_SCHEMA_VERSION);
    expect(parked.permission_requests).toEqual([
      {
        tool: 'Bash',
        input: ask.input,
        at: at(2).toISOString(),
        claude_agent_id: ask.claudeAgentId,
        status: 'pending',
      },
    ]);
    expect(roundTrip(parked)).toEqual(parked);
  });

  it('changes nothing when the same agent asks the same call again', () => {
    const parked = parkForPermission(executing(), ask, at(2));
    expect(parkForPermission(parked, { ...ask, input: { description: 'make it', command: 'touch FILE' } }, at(3))).toBe(
      parked,
    );
  });

  it('expires the older pending request when a newer one arrives', () => {
    const parked = parkForPermission(executing(), ask, at(2));
    const again = parkForPermission(parked, { ...ask, input: { command: 'rm FILE' } }, at(3));
    expect(again.permission_requests!.map((request) => request.status)).toEqual(['expired', 'pending']);
    expect(pendingPermission(again)!.input).toEqual({ command: 'rm FILE' });
  });

  it.each([
    ['validating', (s: SessionState) => applyChange(s, { phase: 'validating' }, at(1))],
    ['completed', (s: SessionState) => finalizeState(s, 'completed', undefined, at(1))],
  ])('refuses a session in %s (E_ILLEGAL_TRANSITION)', (_phase, make) => {
    const state = make(executing());
    expect(canPark(state)).toBe(false);
    expect(codeOf(() => parkForPermission(state, ask, at(2)))).toBe('E_ILLEGAL_TRANSITION');
  });
});

describe('approve and reject of a pending request', () => {
  it('approve grants exactly that call once, until the expiry', () => {
    const approved = approveState(parkForPermission(executing(), ask, at(2)), { grantTtlHours: 1 }, AT_TERMINAL, at(3));
    expect(approved.phase).toBe('executing');
    const request = lastPermission(approved)!;
    expect(request.status).toBe('approved');
    expect(request.expires_at).toBe(at(63).toISOString());
    expect(roundTrip(approved)).toEqual(approved);
    // The same call, keys in another order, from the agent that resumes the session: allowed once.
    const resumedAsk = { ...ask, input: { description: 'make it', command: 'touch FILE' }, claudeAgentId: 'a2' };
    const index = grantFor(approved, resumedAsk, scope, at(10));
    expect(index).toBe(0);
    const spent = spendGrant(approved, index!, 'a2', at(10));
    expect(lastPermission(spent)).toMatchObject({ status: 'spent', spent_at: at(10).toISOString(), spent_by: 'a2' });
    expect(grantFor(spent, resumedAsk, scope, at(11))).toBeNull();
    expect(codeOf(() => spendGrant(spent, 0, 'a2', at(11)))).toBe('E_ILLEGAL_TRANSITION');
    expect(roundTrip(spent)).toEqual(spent);
  });

  it.each([
    ['another command', { ...ask, input: { command: 'touch OTHER', description: 'make it' } }, scope, 10],
    ['an extra key', { ...ask, input: { ...(ask.input as object), timeout: 5 } }, scope, 10],
    ['another tool', { ...ask, tool: 'Write' }, scope, 10],
    ['another project', ask, { ...scope, project: 'other' }, 10],
    ['another host', ask, { ...scope, host: 'codex' as const }, 10],
    ['past the expiry', ask, scope, 63],
  ])('allows nothing for %s', (_case, asked, where, minute) => {
    const approved = approveState(parkForPermission(executing(), ask, at(2)), { grantTtlHours: 1 }, AT_TERMINAL, at(3));
    expect(grantFor(approved, asked, where, at(minute))).toBeNull();
  });

  it('reads a grant past its expiry as expired', () => {
    const approved = approveState(parkForPermission(executing(), ask, at(2)), { grantTtlHours: 1 }, AT_TERMINAL, at(3));
    expect(permissionStatus(lastPermission(approved)!, at(62))).toBe('approved');
    expect(permissionStatus(lastPermission(approved)!, at(63))).toBe('expired');
  });

  it('stores a grant seen past its expiry as expired: a clock stepped back never revives it', () => {
    const approved = approveState(parkForPermission(executing(), ask, at(2)), { grantTtlHours: 1 }, AT_TERMINAL, at(3));
    expect(expireLapsedGrants(approved, at(62))).toBe(approved);
    const lapsed = expireLapsedGrants(approved, at(63));
    expect(lastPermission(lapsed)).toMatchObject({ status: 'expired', expires_at: at(63).toISOString() });
    expect(grantFor(lapsed, ask, scope, at(10))).toBeNull();
    expect(expireLapsedGrants(lapsed, at(64))).toBe(lapsed);
    expect(roundTrip(lapsed)).toEqual(lapsed);
  });

  it('a session of another host keeps its grant to that host', () => {
    const sdk = withHost(parkForPermission(executing(), ask, at(2)), 'agent-sdk');
    const approved = approveState(sdk, {}, AT_TERMINAL, at(3));
    expect(grantFor(approved, ask, { ...scope, host: 'agent-sdk' }, at(4))).toBe(0);
    expect(grantFor(approved, ask, scope, at(4))).toBeNull();
  });

  it('reject records the reason and grants nothing', () => {
    const rejected = rejectState(
      parkForPermission(executing(), ask, at(2)),
      { reason: 'no writes' },
      AT_TERMINAL,
      at(3),
    );
    expect(rejected.phase).toBe('planning');
    expect(lastPermission(rejected)).toMatchObject({ status: 'rejected', reason: 'no writes' });
    expect(grantFor(rejected, ask, scope, at(4))).toBeNull();
    expect(roundTrip(rejected)).toEqual(rejected);
  });

  it('an approval of a plan (no request) adds no permission field', () => {
    const plan = applyChange(executing(), { phase: 'approval' }, at(2));
    const approved = approveState(plan, {}, AT_TERMINAL, at(3));
    expect(approved.permission_requests).toBeUndefined();
    expect(approved.schema_version).toBe(PROJECT_SCHEMA_VERSION);
  });
});

// Issue 40 item 7 (redteam M3): `rm -rf -- *` approved in build/ was spent from $HOME.
describe('a grant holds for its folder', () => {
  const inBuild: PermissionAsk = { ...ask, input: { command: 'rm -rf -- *' }, cwd: '/p/build' };
  const granted = () => approveState(parkForPermission(executing(), inBuild, at(2)), {}, AT_TERMINAL, at(3));

  it('the request records the folder it was asked in, schema 12', () => {
    const parked = parkForPermission(executing(), inBuild, at(2));
    expect(pendingPermission(parked)).toMatchObject({ cwd: '/p/build', status: 'pending' });
    expect(parked.schema_version).toBe(PERMISSION_FOLDER_SCHEMA_VERSION);
    expect(roundTrip(parked)).toEqual(parked);
    expect(roundTrip(granted())).toEqual(granted());
  });

  it.each([
    ['the home folder', { cwd: '/home/u' }],
    ['the folder above', { cwd: '/p' }],
    ['a folder below', { cwd: '/p/build/x' }],
    ['no folder', { cwd: undefined }],
  ])('allows nothing from %s', (_case, where) => {
    const asked = { ...inBuild, claudeAgentId: 'a2', ...where };
    if (where.cwd === undefined) delete asked.cwd;
    expect(grantFor(granted(), asked, scope, at(4))).toBeNull();
  });

  it('allows the same call from the same folder, once', () => {
    const index = grantFor(granted(), { ...inBuild, claudeAgentId: 'a2' }, scope, at(4));
    expect(index).toBe(0);
  });

  it('a request without a folder is granted only to a call without one', () => {
    const approved = approveState(parkForPermission(executing(), ask, at(2)), {}, AT_TERMINAL, at(3));
    expect(grantFor(approved, { ...ask, cwd: '/p' }, scope, at(4))).toBeNull();
    expect(grantFor(approved, ask, scope, at(4))).toBe(0);
  });

  it('the same call asked again from another folder is a new request', () => {
    const parked = parkForPermission(executing(), inBuild, at(2));
    const again = parkForPermission(parked, { ...inBuild, cwd: '/home/u' }, at(3));
    expect(again.permission_requests!.map((request) => [request.status, request.cwd])).toEqual([
      ['expired', '/p/build'],
      ['pending', '/home/u'],
    ]);
  });
});

describe('jsonEqual', () => {
  const shuffled = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(shuffled);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, item]) => [key, shuffled(item)]),
    );
  };

  it('is true for a value and a copy with its keys in another order', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => jsonEqual(value, shuffled(JSON.parse(JSON.stringify(value))))));
  });

  it('agrees with comparing canonical JSON', () => {
    const canonical = (value: unknown): string =>
      JSON.stringify(value, (_key, item: unknown) =>
        typeof item === 'object' && item !== null && !Array.isArray(item)
          ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
          : item,
      );
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const left = JSON.parse(JSON.stringify(a)) as unknown;
        const right = JSON.parse(JSON.stringify(b)) as unknown;
        return jsonEqual(left, right) === (canonical(left) === canonical(right));
      }),
    );
  });

  it.each([
    [{ a: 1 }, { a: 1, b: undefined }],
    [
      [1, 2],
      [2, 1],
    ],
    [{ a: [1] }, { a: { 0: 1 } }],
    [null, {}],
    ['1', 1],
  ])('tells %j from %j', (a, b) => {
    expect(jsonEqual(a, b)).toBe(false);
  });
});

describe('goesToInbox', () => {
  it.each([
    ['off', { attended: false, entrypoint: 'sdk-cli' }, false],
    ['always', { attended: true, entrypoint: 'cli' }, true],
    ['background', null, false],
    ['background', {}, false],
    ['background', { headless: true }, true],
    // Claude Code's word on its session comes first: the transcript may not be written yet, or say otherwise.
    ['background', { attended: false }, true],
    ['background', { attended: true, entrypoint: 'sdk-cli' }, false],
    ['background', { attended: false, entrypoint: 'cli' }, true],
    ['background', { entrypoint: 'sdk-cli' }, true],
    ['background', { entrypoint: 'cli', requestShape: 'background' }, false],
    ['background', { entrypoint: '' }, false],
  ] as const)('%s with %j: %s', (mode, facts, expected) => {
    expect(goesToInbox(mode, facts)).toBe(expected);
  });
});
