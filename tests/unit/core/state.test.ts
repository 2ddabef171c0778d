import { codeOf } from '../../helpers';
import { applyChange, finalizeState, newSession, parsePhase } from '../../../src/core/session';
import { parseState, summarize } from '../../../src/core/state';

const t0 = new Date('2026-01-08T18:05:30.000Z');
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const fresh = () =>
  newSession(
    {
      agent_id: 'agent-1',
      agent_name: 'terraform-architect',
      purpose: 'approval_workflow',
      metadata: { task_id: 'T001' },
    },
    t0,
  );

describe('newSession', () => {
  it('starts in initializing with the seed fields and schema_version', () => {
    const state = fresh();
    expect(state).toEqual({
      schema_version: 1,
      agent_id: 'agent-1',
      agent_name: 'terraform-architect',
      purpose: 'approval_workflow',
      created_at: '2026-01-08T18:05:30.000Z',
      last_updated: '2026-01-08T18:05:30.000Z',
      phase: 'initializing',
      metadata: { task_id: 'T001' },
      resume_ready: false,
      history: [],
      error_count: 0,
      last_error: null,
    });
    expect(parseState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });
});

describe('applyChange', () => {
  it('moves phase, records history and resume_ready', () => {
    const state = applyChange(fresh(), { phase: 'approval' }, later(10));
    expect(state.phase).toBe('approval');
    expect(state.resume_ready).toBe(true);
    expect(state.history).toEqual([
      { from_phase: 'initializing', to_phase: 'approval', timestamp: later(10).toISOString() },
    ]);
    expect(state.last_updated).toBe(later(10).toISOString());
  });

  it('adds no history entry for a move to the current phase, but applies metadata and errors', () => {
    const parked = applyChange(fresh(), { phase: 'planning' }, later(1));
    const same = applyChange(parked, { phase: 'planning', metadata: { a: 1 }, error: 'boom' }, later(2));
    expect(same.history).toHaveLength(1);
    expect(same.metadata).toEqual({ task_id: 'T001', a: 1 });
    expect(same.error_count).toBe(1);
    expect(same.last_error).toEqual({ message: 'boom', timestamp: later(2).toISOString() });
  });

  it('shallow-merges metadata', () => {
    const one = applyChange(fresh(), { metadata: { findings: ['a'], nested: { x: 1 } } }, later(1));
    const two = applyChange(one, { metadata: { findings: ['a', 'b'], nested: { y: 2 } } }, later(2));
    expect(two.metadata).toEqual({ task_id: 'T001', findings: ['a', 'b'], nested: { y: 2 } });
  });

  it('keeps __proto__ keys as plain data and pollutes nothing', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}');
    const state = applyChange(fresh(), { metadata: patch }, later(1));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(state.metadata)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(state.metadata))).toHaveProperty(['__proto__', 'polluted'], true);
  });

  it('a touch only updates last_updated', () => {
    const state = fresh();
    expect(applyChange(state, {}, later(5))).toEqual({ ...state, last_updated: later(5).toISOString() });
  });

  it('an update to a final phase finalizes', () => {
    const done = applyChange(applyChange(fresh(), { phase: 'executing' }, later(1)), { phase: 'failed' }, later(90));
    expect(done).toMatchObject({
      phase: 'failed',
      resume_ready: false,
      finalized_at: later(90).toISOString(),
      duration_seconds: 90,
    });
    expect(done.history.at(-1)).toEqual({
      from_phase: 'executing',
      to_phase: 'failed',
      timestamp: later(90).toISOString(),
    });
  });

  it.each([[{ phase: 'approval' as const }], [{ metadata: { a: 1 } }], [{ error: 'x' }], [{}]])(
    'refuses any change to a final session: %p',
    (change) => {
      const done = finalizeState(fresh(), 'completed', 'ok', later(1));
      expect(codeOf(() => applyChange(done, change, later(2)))).toBe('E_ILLEGAL_TRANSITION');
    },
  );

  it('an illegal move changes nothing (no metadata, no error applied)', () => {
    const validating = applyChange(
      applyChange(fresh(), { phase: 'executing' }, later(1)),
      { phase: 'validating' },
      later(2),
    );
    expect(
      codeOf(() => applyChange(validating, { phase: 'approval', metadata: { lost: 1 }, error: 'x' }, later(3))),
    ).toBe('E_ILLEGAL_TRANSITION');
  });
});

describe('finalizeState', () => {
  it('records finalized_at, duration_seconds, summary and a history entry', () => {
    const done = finalizeState(
      applyChange(fresh(), { phase: 'approval' }, later(1)),
      'completed',
      'Terraform applied',
      later(12.5),
    );
    expect(done).toMatchObject({
      phase: 'completed',
      resume_ready: false,
      finalized_at: later(12.5).toISOString(),
      last_updated: later(12.5).toISOString(),
      duration_seconds: 12.5,
      summary: 'Terraform applied',
    });
    expect(done.history.at(-1)).toMatchObject({ from_phase: 'approval', to_phase: 'completed' });
    expect(parseState(JSON.parse(JSON.stringify(done)))).toEqual(done);
  });

  it('omits summary when none is given', () => {
    expect(finalizeState(fresh(), 'abandoned', undefined, later(1))).not.toHaveProperty('summary');
  });
});

describe('parsePhase', () => {
  it('accepts a phase and refuses anything else with E_USAGE', () => {
    expect(parsePhase('approval')).toBe('approval');
    expect(codeOf(() => parsePhase('dancing'))).toBe('E_USAGE');
    expect(codeOf(() => parsePhase(''))).toBe('E_USAGE');
  });
});

describe('parseState', () => {
  const valid = () =>
    JSON.parse(JSON.stringify(applyChange(fresh(), { phase: 'approval', error: 'e' }, later(1)))) as Record<
      string,
      unknown
    >;

  it('accepts a state of the original Python version (no schema_version, +00:00 offsets, microseconds)', () => {
    const python = {
      agent_id: 'agent-20261122-030334-34ebfd6e',
      agent_name: 'terraform-architect',
      purpose: 'approval_workflow',
      created_at: '2026-11-22T03:03:34.590402+00:00',
      last_updated: '2026-11-22T03:03:40.154917+00:00',
      phase: 'approval',
      metadata: {},
      resume_ready: true,
      history: [{ from_phase: 'initializing', to_phase: 'approval', timestamp: '2026-11-22T03:03:40.154917+00:00' }],
      error_count: 1,
      last_error: { message: 'x', timestamp: '2026-11-22T03:03:40+00:00' },
    };
    expect(parseState(python)).toMatchObject({ schema_version: 1, phase: 'approval' });
  });

  it.each([
    ['an array', () => [1]],
    ['null', () => null],
    ['a string', () => 'x'],
    ['missing history', () => ({ ...valid(), history: undefined })],
    ['missing agent_id', () => ({ ...valid(), agent_id: undefined })],
    ['an unknown phase', () => ({ ...valid(), phase: 'dancing' })],
    ['a numeric last_updated', () => ({ ...valid(), last_updated: 12 })],
    ['an unparsable timestamp', () => ({ ...valid(), last_updated: '2024-13-45' })],
    ['a string error_count', () => ({ ...valid(), error_count: '3' })],
    ['a negative error_count', () => ({ ...valid(), error_count: -1 })],
    ['metadata as an array', () => ({ ...valid(), metadata: [] })],
    ['an unknown field', () => ({ ...valid(), extra: true })],
    ['a future schema_version', () => ({ ...valid(), schema_version: 4 })],
    ['schema_version 2 without decisions', () => ({ ...valid(), schema_version: 2 })],
    ['a traversal agent_id', () => ({ ...valid(), agent_id: '../x' })],
  ])('refuses %s with E_CORRUPT', (_label, make) => {
    expect(codeOf(() => parseState(make()))).toBe('E_CORRUPT');
  });

  it('summarize keeps the listing fields', () => {
    const state = parseState(valid());
    expect(Object.keys(summarize(state)).sort()).toEqual([
      'agent_id',
      'agent_name',
      'created_at',
      'error_count',
      'last_updated',
      'phase',
      'purpose',
      'resume_ready',
    ]);
  });
});

describe('metadata keys', () => {
  it('keeps a __proto__ key stored by the user, as plain data, without polluting anything', () => {
    const raw = JSON.parse(
      JSON.stringify(newSession({ agent_id: 'a', agent_name: 'n', purpose: 'p' }, t0)).replace(
        '"metadata":{}',
        '"metadata":{"__proto__":{"polluted":true},"ok":1}',
      ),
    );
    const state = parseState(raw);
    expect(JSON.parse(JSON.stringify(state.metadata))).toEqual(JSON.parse('{"__proto__":{"polluted":true},"ok":1}'));
    expect(Object.keys(state.metadata).sort()).toEqual(['__proto__', 'ok']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
