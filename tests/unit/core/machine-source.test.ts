import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transition } from 'xstate';
import { DEFAULT_LIMITS } from '../../../src/core/limits';
import { phaseMachine, phaseTableOf, renderPhaseTable } from '../../../src/core/phase-machine';
import {
  FINAL_PHASES,
  PHASES,
  PICKUP_PHASE,
  RESUMABLE_PHASES,
  isFinalPhase,
  type Phase,
} from '../../../src/core/phase-names';
import { PHASE_TABLE } from '../../../src/generated/phase-table';
import { allowedTargets, movePhase, resumeVerdict } from '../../../src/core/phases';
import { allowsResume, type ResumeFacts } from '../../../src/core/rules';

// The machine is the one source of the phase rules: the bins answer from the table generated from it at build time
// (src/core/phase-table.ts), so the table and the answers read from it must agree with what the machine does when run.
const now = new Date('2026-01-08T18:30:00.000Z');
const MIN = 60_000;
const FACTS: readonly (readonly [string, Omit<ResumeFacts, 'phase'>])[] = [
  ['fresh', { resume_ready: true, last_updated: new Date(now.getTime() - 5 * MIN).toISOString(), error_count: 0 }],
  ['not ready', { resume_ready: false, last_updated: now.toISOString(), error_count: 0 }],
  ['expired', { resume_ready: true, last_updated: new Date(now.getTime() - 31 * MIN).toISOString(), error_count: 0 }],
  ['ahead', { resume_ready: true, last_updated: new Date(now.getTime() + 2 * MIN).toISOString(), error_count: 0 }],
  ['errors', { resume_ready: true, last_updated: now.toISOString(), error_count: 3 }],
  // Interrupted (its agent died of a host failure): carried on in any working phase, idle or not, not over the limits.
  [
    'interrupted, idle 5 h',
    {
      resume_ready: false,
      last_updated: new Date(now.getTime() - 300 * MIN).toISOString(),
      error_count: 0,
      interruption: { waiting: true },
    },
  ],
  [
    'interrupted, errors',
    { resume_ready: false, last_updated: now.toISOString(), error_count: 3, interruption: { waiting: true } },
  ],
  [
    'interrupted, ahead',
    {
      resume_ready: true,
      last_updated: new Date(now.getTime() + 2 * MIN).toISOString(),
      error_count: 0,
      interruption: { waiting: true },
    },
  ],
  [
    'carried on already, expired',
    {
      resume_ready: true,
      last_updated: new Date(now.getTime() - 31 * MIN).toISOString(),
      error_count: 0,
      interruption: { waiting: false },
    },
  ],
];

const at = (phase: Phase) => phaseMachine.resolveState({ value: phase, context: {} });

describe('the machine as the source of the phase rules', () => {
  it.each(PHASES.flatMap((phase) => FACTS.map(([label, facts]) => [phase, label, facts] as const)))(
    'resume from %s (%s): resumeVerdict agrees with running the machine',
    (phase, _label, rest) => {
      const facts = { ...rest, phase };
      const event = { type: 'resume' as const, facts, now, limits: DEFAULT_LIMITS };
      const machineSays = at(phase).can(event);
      expect(allowsResume(resumeVerdict(facts, now, DEFAULT_LIMITS))).toBe(machineSays);
      if (machineSays) expect(transition(phaseMachine, at(phase), event)[0].value).toBe(phase);
    },
  );

  it.each(PHASES.map((phase) => [phase]))('allowedTargets(%s) is exactly the moves the machine accepts', (from) => {
    const accepted = PHASES.filter((to) => to !== from && at(from).can({ type: `to.${to}` }));
    expect([...allowedTargets(from)].sort()).toEqual([...accepted].sort());
    for (const to of allowedTargets(from)) expect(movePhase(from, to)).toBe(to);
  });

  it('the generated table is exactly the one the machine gives (npm run build regenerates it)', () => {
    expect(PHASE_TABLE).toEqual(phaseTableOf(phaseMachine));
    const file = readFileSync(join(__dirname, '../../../src/generated/phase-table.ts'), 'utf8');
    expect(file).toBe(renderPhaseTable(phaseTableOf(phaseMachine)));
  });

  it.each(PHASES.map((phase) => [phase]))(
    'the table row of %s: moves the machine accepts, resume where it exists',
    (from) => {
      const row = PHASE_TABLE[from];
      for (const to of PHASES) expect(row.moves.includes(to)).toBe(at(from).can({ type: `to.${to}` }));
      expect(row.resume.length > 0).toBe(phaseMachine.states[from]!.ownEvents.includes('resume'));
    },
  );
});

describe('the machine agrees with the phase names', () => {
  const table = phaseTableOf(phaseMachine);
  it('has a state for every phase and no other, the final ones final', () => {
    expect(Object.keys(phaseMachine.states).sort()).toEqual([...PHASES].sort());
    for (const phase of PHASES) expect(phaseMachine.states[phase]!.type === 'final').toBe(isFinalPhase(phase));
  });

  it('lets every working phase end in every final phase, and a final phase go nowhere', () => {
    for (const phase of PHASES) {
      if (isFinalPhase(phase)) expect(table[phase].moves).toEqual([]);
      else expect(table[phase].moves).toEqual(expect.arrayContaining([...FINAL_PHASES]));
    }
  });

  it('has `resume` in every working phase for an interruption (carryOnAllowed, first), besides in the resumable phases (resumeAllowed) and the pickup phase (pickupAllowed)', () => {
    for (const phase of PHASES) {
      const expected = isFinalPhase(phase)
        ? []
        : (RESUMABLE_PHASES as readonly Phase[]).includes(phase)
          ? ['carryOnAllowed', 'resumeAllowed']
          : phase === PICKUP_PHASE
            ? ['carryOnAllowed', 'pickupAllowed']
            : ['carryOnAllowed'];
      expect(table[phase].resume).toEqual(expected);
    }
  });
});
