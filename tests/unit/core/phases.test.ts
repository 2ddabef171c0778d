import fc from 'fast-check';
import { SessionError } from '../../../src/core/errors';
import { DEFAULT_LIMITS } from '../../../src/core/limits';
import { FINAL_PHASES, PHASES, isFinalPhase, type Phase } from '../../../src/core/phase-names';
import { allowedTargets, movePhase, resumeVerdict } from '../../../src/core/phases';
import { applyChange, finalizeState, newSession } from '../../../src/core/session';

// The contract's table (issue #2 §3), written out independently of src/core/phases.ts.
const TABLE: Record<Phase, readonly Phase[]> = {
  initializing: ['investigating', 'planning', 'approval', 'executing', 'completed', 'failed', 'abandoned'],
  investigating: ['planning', 'approval', 'executing', 'completed', 'failed', 'abandoned'],
  planning: ['investigating', 'approval', 'executing', 'completed', 'failed', 'abandoned'],
  approval: ['investigating', 'planning', 'executing', 'completed', 'failed', 'abandoned'],
  executing: ['validating', 'approval', 'investigating', 'planning', 'completed', 'failed', 'abandoned'],
  validating: ['executing', 'planning', 'completed', 'failed', 'abandoned'],
  completed: [],
  failed: [],
  abandoned: [],
};

const pairs = PHASES.flatMap((from) =>
  PHASES.filter((to) => to !== from).map((to) => [from, to, TABLE[from].includes(to)] as const),
);

describe('phase machine', () => {
  it.each(pairs)('%s → %s allowed: %s', (from, to, allowed) => {
    if (allowed) {
      expect(movePhase(from, to)).toBe(to);
    } else {
      expect(() => movePhase(from, to)).toThrow(SessionError);
      try {
        movePhase(from, to);
      } catch (error) {
        expect((error as SessionError).code).toBe('E_ILLEGAL_TRANSITION');
      }
    }
  });

  it.each(PHASES.map((phase) => [phase]))('allowedTargets(%s) matches the table', (phase) => {
    expect([...allowedTargets(phase)].sort()).toEqual([...TABLE[phase]].sort());
  });

  it('refuses a move to a phase that does not exist', () => {
    expect(() => movePhase('planning', 'dancing' as Phase)).toThrow(SessionError);
  });
});

describe('resume guard', () => {
  const now = new Date('2026-01-08T18:30:00.000Z');
  const facts = (phase: Phase) => ({ phase, resume_ready: true, last_updated: now.toISOString(), error_count: 0 });

  it.each(PHASES.map((phase) => [phase, ['investigating', 'planning', 'approval'].includes(phase)] as const))(
    'resume from %s allowed: %s',
    (phase, allowed) => {
      expect(resumeVerdict(facts(phase), now, DEFAULT_LIMITS)).toBe(
        allowed ? 'session_resumable' : 'phase_not_resumable',
      );
    },
  );
});

// --- properties ---

const EVENTS = [
  ...PHASES.map((phase) => ({ kind: 'phase' as const, phase })),
  { kind: 'error' as const },
  { kind: 'meta' as const },
];
const start = new Date('2026-01-08T18:00:00.000Z');

function replay(events: readonly (typeof EVENTS)[number][]) {
  let state = newSession({ agent_id: 'prop', agent_name: 'a', purpose: 'p' }, start);
  const seen = [state];
  events.forEach((event, i) => {
    const at = new Date(start.getTime() + (i + 1) * 1000);
    try {
      if (event.kind === 'phase') state = applyChange(state, { phase: event.phase }, at);
      else if (event.kind === 'error') state = applyChange(state, { error: `e${i}` }, at);
      else state = applyChange(state, { metadata: { [`k${i}`]: i } }, at);
    } catch (error) {
      if (!(error instanceof SessionError) || error.code !== 'E_ILLEGAL_TRANSITION') throw error;
    }
    seen.push(state);
  });
  return seen;
}

describe('machine properties', () => {
  const arbitraryEvents = fc.array(fc.constantFrom(...EVENTS), { maxLength: 25 });

  it('a final phase stays final, and finalized fields appear exactly once', () => {
    fc.assert(
      fc.property(arbitraryEvents, (events) => {
        const seen = replay(events);
        const firstFinal = seen.findIndex((s) => isFinalPhase(s.phase));
        if (firstFinal === -1) return seen.every((s) => s.finalized_at === undefined);
        return seen.slice(firstFinal).every((s) => s === seen[firstFinal]);
      }),
      { numRuns: 200 },
    );
  });

  it('history stays a chain ending in the current phase, with no self-moves', () => {
    fc.assert(
      fc.property(arbitraryEvents, (events) => {
        const state = replay(events).at(-1)!;
        let previous: Phase = 'initializing';
        for (const entry of state.history) {
          if (entry.from_phase !== previous || entry.to_phase === entry.from_phase) return false;
          previous = entry.to_phase;
        }
        return (
          previous === state.phase &&
          state.resume_ready === ['investigating', 'planning', 'approval'].includes(state.phase)
        );
      }),
      { numRuns: 200 },
    );
  });

  it('every phase reached is in the table from its predecessor', () => {
    fc.assert(
      fc.property(arbitraryEvents, (events) => {
        const { history } = replay(events).at(-1)!;
        return history.every((entry) => TABLE[entry.from_phase].includes(entry.to_phase));
      }),
      { numRuns: 200 },
    );
  });

  it('finalizing twice is refused', () => {
    const session = newSession({ agent_id: 'x', agent_name: 'a', purpose: 'p' }, start);
    for (const outcome of FINAL_PHASES) {
      const done = finalizeState(session, outcome, undefined, start);
      expect(() => finalizeState(done, 'completed', undefined, start)).toThrow(SessionError);
    }
  });
});
