import { transition } from 'xstate';
import { DEFAULT_LIMITS } from '../../../src/core/limits';
import { PHASES, type Phase } from '../../../src/core/phase-names';
import { allowedTargets, movePhase, phaseMachine, resumeVerdict } from '../../../src/core/phases';
import type { ResumeFacts } from '../../../src/core/rules';

// The machine is the one source of the phase rules: the answers below are read from it, so they must agree with
// what the machine itself does when it is run.
const now = new Date('2026-01-08T18:30:00.000Z');
const MIN = 60_000;
const FACTS: readonly (readonly [string, Omit<ResumeFacts, 'phase'>])[] = [
  ['fresh', { resume_ready: true, last_updated: new Date(now.getTime() - 5 * MIN).toISOString(), error_count: 0 }],
  ['not ready', { resume_ready: false, last_updated: now.toISOString(), error_count: 0 }],
  ['expired', { resume_ready: true, last_updated: new Date(now.getTime() - 31 * MIN).toISOString(), error_count: 0 }],
  ['ahead', { resume_ready: true, last_updated: new Date(now.getTime() + 2 * MIN).toISOString(), error_count: 0 }],
  ['errors', { resume_ready: true, last_updated: now.toISOString(), error_count: 3 }],
];

const at = (phase: Phase) => phaseMachine.resolveState({ value: phase, context: {} });

describe('the machine as the source of the phase rules', () => {
  it.each(PHASES.flatMap((phase) => FACTS.map(([label, facts]) => [phase, label, facts] as const)))(
    'resume from %s (%s): resumeVerdict agrees with running the machine',
    (phase, _label, rest) => {
      const facts = { ...rest, phase };
      const event = { type: 'resume' as const, facts, now, limits: DEFAULT_LIMITS };
      const machineSays = at(phase).can(event);
      expect(resumeVerdict(facts, now, DEFAULT_LIMITS) === 'session_resumable').toBe(machineSays);
      if (machineSays) expect(transition(phaseMachine, at(phase), event)[0].value).toBe(phase);
    },
  );

  it.each(PHASES.map((phase) => [phase]))('allowedTargets(%s) is exactly the moves the machine accepts', (from) => {
    const accepted = PHASES.filter((to) => to !== from && at(from).can({ type: `to.${to}` }));
    expect([...allowedTargets(from)].sort()).toEqual([...accepted].sort());
    for (const to of allowedTargets(from)) expect(movePhase(from, to)).toBe(to);
  });
});
