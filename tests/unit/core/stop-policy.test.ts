// Both stop policies (src/core/stop-policy.ts): Claude Code's on the facts of a session, the seed's on an exit code;
// and the grouping the agents' texts are built from.
import { plainStopOutcomes, seedStopOutcome, stopRule, type StopFacts } from '../../../src/core/stop-policy';
import { WORK_PHASES } from '../../../src/core/phase-names';

const plain = { tooManyErrors: false, interrupted: false, awaitsPickup: false };

describe('stopRule', () => {
  it.each<[StopFacts, string]>([
    [{ ...plain, phase: 'initializing' }, 'abandoned'],
    [{ ...plain, phase: 'investigating' }, 'kept'],
    [{ ...plain, phase: 'planning' }, 'kept'],
    [{ ...plain, phase: 'approval' }, 'kept'],
    [{ ...plain, phase: 'executing' }, 'completed'],
    [{ ...plain, phase: 'validating' }, 'completed'],
    [{ ...plain, phase: 'executing', awaitsPickup: true }, 'kept'],
    [{ ...plain, phase: 'approval', tooManyErrors: true }, 'failed'],
    [{ ...plain, phase: 'initializing', tooManyErrors: true }, 'failed'],
    [{ ...plain, phase: 'executing', awaitsPickup: true, tooManyErrors: true }, 'failed'],
    [{ ...plain, phase: 'validating', interrupted: true }, 'kept'],
    [{ ...plain, phase: 'initializing', interrupted: true, tooManyErrors: true }, 'kept'],
  ])('%o → %s', (facts, outcome) => {
    expect(stopRule(facts)).toBe(outcome);
  });
});

describe('seedStopOutcome', () => {
  it.each([
    [0, 'completed'],
    [1, 'failed'],
    [-1, 'failed'],
    [137, 'failed'],
  ])('exit code %i → %s', (code, outcome) => {
    expect(seedStopOutcome(code)).toBe(outcome);
  });
});

describe('plainStopOutcomes', () => {
  it('groups every work phase once, as the rule decides it', () => {
    const grouped = plainStopOutcomes();
    expect(grouped).toEqual({
      kept: ['investigating', 'planning', 'approval'],
      abandoned: ['initializing'],
      completed: ['executing', 'validating'],
    });
    expect([...grouped.kept, ...grouped.abandoned, ...grouped.completed].sort()).toEqual([...WORK_PHASES].sort());
  });
});
