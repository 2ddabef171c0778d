import { createHmac } from 'node:crypto';
import { approveState, decisionSentence, deciderText, rejectState } from '../../../src/core/decision';
import { grantFor, parkForPermission, pendingPermission, type PermissionAsk } from '../../../src/core/permission';
import { awaitsPickup } from '../../../src/core/rules';
import { countedHere, sealNew, withoutUnverifiedMarks } from '../../../src/core/seal';
import { applyChange, newSession } from '../../../src/core/session';
import { parseState, SEALED_SCHEMA_VERSION, type SessionState } from '../../../src/core/state';
import { AT_TERMINAL } from '../../support/origin';

// Issue 40 item 3: what counts is what this machine's user sealed. The MAC here is a real HMAC under a test key; the
// rule under test is core's (which fields are sealed, what an unsealed or altered record may still do).
const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 9);
const macUnder = (key: Buffer) => (text: string) => createHmac('sha256', key).update(text).digest('hex');
const sign = macUnder(KEY);
const verifyUnder = (key: Buffer) => (text: string, mac: string) => macUnder(key)(text) === mac;
const verify = verifyUnder(KEY);

const t0 = new Date('2026-11-28T06:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const ask: PermissionAsk = { tool: 'Bash', input: { command: 'make' }, claudeAgentId: 'a1', cwd: '/p' };
const scope = { project: 'proj', host: 'claude-code' } as const;
const parked = (): SessionState =>
  parkForPermission(
    applyChange(
      newSession({ agent_id: 'agent-1', agent_name: 'w', purpose: 'p', project: 'proj' }, t0),
      { phase: 'executing' },
      at(1),
    ),
    ask,
    at(2),
  );
const approved = (signer?: (text: string) => string) => approveState(parked(), {}, AT_TERMINAL, at(3), signer);
const roundTrip = (state: SessionState) => parseState(JSON.parse(JSON.stringify(state)));

describe('sealing', () => {
  it('approve seals its decision and its grant (schema 13); the state reads back as it was written', () => {
    const state = approved(sign);
    expect(state.schema_version).toBe(SEALED_SCHEMA_VERSION);
    expect(state.decisions![0]!.mac).toMatch(/^[0-9a-f]{64}$/);
    expect(state.permission_requests![0]!.mac).toMatch(/^[0-9a-f]{64}$/);
    expect(roundTrip(state)).toEqual(state);
    // Judged under the same key: nothing marked, the very same object (nothing to rewrite).
    const judged = countedHere(state, verify);
    expect(judged.decisions![0]!.unverified).toBeUndefined();
    expect(grantFor(judged, ask, scope, at(4))).toBe(0);
    expect(awaitsPickup(judged)).toBe(true);
  });

  it('reject seals its decision', () => {
    const state = rejectState(parked(), { reason: 'no' }, AT_TERMINAL, at(3), sign);
    expect(countedHere(state, verify).decisions![0]!.unverified).toBeUndefined();
  });

  it('a state with nothing to judge is returned as it is, without a MAC computed', () => {
    const verifyNever = jest.fn(() => true);
    const state = parked();
    expect(countedHere(state, verifyNever)).toBe(state);
    expect(verifyNever).not.toHaveBeenCalled();
  });
});

describe('what does not count', () => {
  type Edit = (state: SessionState) => void;
  const cases: [string, (text: string) => string, Edit][] = [
    [
      'no MAC (an older version, PostgreSQL, a hand-written file)',
      (text) => text,
      (s) => {
        delete s.decisions![0]!.mac;
        delete s.permission_requests![0]!.mac;
      },
    ],
    ['a MAC under another key (a clone, another machine)', macUnder(OTHER_KEY), () => undefined],
    [
      'its decider changed',
      sign,
      (s) => {
        s.decisions![0]!.by = 'you';
        s.permission_requests![0]!.expires_at = '2036-01-01T00:00:00.000Z';
      },
    ],
    [
      'its origin changed',
      sign,
      (s) => {
        s.decisions![0]!.origin = { os_user: 'you', terminal: true, claimed: false };
        s.permission_requests![0]!.input = { command: 'curl x | sh' };
      },
    ],
    [
      'how long it waited changed',
      sign,
      (s) => {
        s.decisions![0]!.waiting_since = t0.toISOString();
        s.permission_requests![0]!.cwd = '/';
      },
    ],
    [
      'moved to another session',
      sign,
      (s) => {
        s.agent_id = 'agent-2';
      },
    ],
  ];

  it.each(cases)(
    '%s: told as nothing, allows nothing, the session back in approval, decided again',
    (_case, signer, edit) => {
      const state = structuredClone(approved(signer));
      edit(state);
      const judged = countedHere(state, verify);
      const decision = judged.decisions![0]!;
      expect(decision.unverified).toBe(true);
      expect(awaitsPickup(judged)).toBe(false);
      expect(decisionSentence(decision)).not.toMatch(/approved/);
      expect(deciderText(decision)).toContain('not verified here');
      // The approval's move undone, its grant pending again: nothing allowed, and the user decides again.
      expect(judged.phase).toBe('approval');
      expect(judged.history.at(-1)).toMatchObject({ to_phase: 'approval' });
      expect(pendingPermission(judged)).toMatchObject({ tool: 'Bash', status: 'pending' });
      expect(
        grantFor(
          judged,
          { ...ask, input: judged.permission_requests![0]!.input, cwd: judged.permission_requests![0]!.cwd },
          scope,
          at(5),
        ),
      ).toBeNull();
      const again = approveState(judged, {}, AT_TERMINAL, at(6), sign);
      const counted = countedHere(roundTrip(withoutUnverifiedMarks(again)), verify);
      expect(counted.decisions!.at(-1)!.unverified).toBeUndefined();
      expect(awaitsPickup(counted)).toBe(true);
      expect(counted.permission_requests!.at(-1)).toMatchObject({ status: 'approved' });
      expect(counted.permission_requests!.at(-1)!.unverified).toBeUndefined();
    },
  );

  it('an unsealed grant on a session that moved on is marked and allows nothing (no reopening)', () => {
    const state = structuredClone(approved(sign));
    state.decisions![0]!.by = 'you';
    // A later move after the approval: not as the approval left it.
    const moved = applyChange(state, { phase: 'validating' }, at(4));
    const forged = {
      ...moved,
      permission_requests: moved.permission_requests!.map((r) => ({ ...r, tool: 'Bash', mac: '0'.repeat(64) })),
    };
    const judged = countedHere(forged, verify);
    expect(judged.phase).toBe('validating');
    expect(judged.permission_requests![0]).toMatchObject({ status: 'approved', unverified: true });
    expect(grantFor(judged, ask, scope, at(5))).toBeNull();
  });

  it('the marks are judged on each read and never written', () => {
    const state = structuredClone(approved(sign));
    state.decisions![0]!.by = 'you';
    const judged = countedHere(state, verify);
    const written = withoutUnverifiedMarks(judged);
    expect(JSON.stringify(written)).not.toContain('unverified');
    // A mark in a file proves nothing either way: a sealed decision marked by hand is unmarked on read.
    const sealed = approved(sign);
    const marked = { ...sealed, decisions: sealed.decisions!.map((d) => ({ ...d, unverified: true as const })) };
    expect(countedHere(marked, verify).decisions![0]!.unverified).toBeUndefined();
  });

  it('sealNew seals only what the decision added', () => {
    const first = approved(sign);
    const before = structuredClone(first);
    const after = sealNew(before, first, () => 'f'.repeat(64));
    expect(after.decisions![0]!.mac).toBe(first.decisions![0]!.mac);
  });
});
