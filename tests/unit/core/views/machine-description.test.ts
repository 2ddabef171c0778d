import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transition } from 'xstate';
import { describeMachine, machineMermaid } from '../../../../src/core/views/machine-description';
import { FINAL_PHASES, PHASES, RESUMABLE_PHASES } from '../../../../src/core/phase-names';
import { phaseMachine } from '../../../../src/core/phase-machine';
import { allowedTargets } from '../../../../src/core/phases';
import { readmeMachineSections, sectionOf } from '../../../support/readme-machine';

const machine = describeMachine();

describe('the machine description is read from the XState definition', () => {
  it.each(PHASES.map((phase) => [phase]))('%s: its moves and ends are what the machine accepts', (phase) => {
    const state = machine.states.find((entry) => entry.phase === phase)!;
    expect([...state.moves, ...state.ends]).toEqual(allowedTargets(phase));
    const snapshot = phaseMachine.resolveState({ value: phase, context: {} });
    for (const to of [...state.moves, ...state.ends]) {
      expect(transition(phaseMachine, snapshot, { type: `to.${to}` } as never)[0].value).toBe(to);
    }
    expect(state.final).toBe((FINAL_PHASES as readonly string[]).includes(phase));
    // An interrupted session is carried on in any working phase; the other resumes only where they always were.
    expect(state.resume_guards).toEqual(
      state.final
        ? []
        : (RESUMABLE_PHASES as readonly string[]).includes(phase)
          ? ['carryOnAllowed', 'resumeAllowed']
          : phase === 'executing'
            ? ['carryOnAllowed', 'pickupAllowed']
            : ['carryOnAllowed'],
    );
  });

  it('starts in initializing and ends in the final phases; the diagram draws every move', () => {
    expect(machine.initial).toBe('initializing');
    expect(machine.final_states).toEqual([...FINAL_PHASES]);
    const diagram = machineMermaid(machine);
    for (const state of machine.states)
      for (const to of state.moves) expect(diagram).toContain(`  ${state.phase} --> ${to}\n`);
  });
});

describe('docs/concepts.md', () => {
  const readme = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'concepts.md'), 'utf8');
  it.each(Object.entries(readmeMachineSections()))(
    'its machine %s is the generated one (npm run readme:machine rewrites it)',
    (name, generated) => {
      expect(sectionOf(readme, name)).toBe(generated);
    },
  );
});
