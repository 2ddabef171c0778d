import { setup } from 'xstate';
import type { Limits } from './limits';
import { PHASES, type Phase } from './phase-names';
import { awaitsCarryOn, awaitsPickup, carryOnBlocker, stateBlocker, type ResumeFacts } from './rules';

type MoveEvent = { type: `to.${Phase}` };
type ResumeEvent = { type: 'resume'; facts: ResumeFacts; now: Date; limits: Limits };
type PhaseEvent = MoveEvent | ResumeEvent;

/** Every working phase may end: a move to a final phase (finalize, or `update --phase completed`). */
const END = { 'to.completed': 'completed', 'to.failed': 'failed', 'to.abandoned': 'abandoned' } as const;

/**
 * The session phase machine, written in XState's own config: the source of the phase rules (the contract's
 * transition table). It is flat (no invoke, no spawn) and used only as a pure transition function over the phase
 * stored in state.json: each working phase lists the phases it may move to (`to.<phase>`) and may end; final phases
 * accept nothing; `resume` exists in every working phase for an interrupted session carried on (`carryOnAllowed`), and
 * besides in a resumable phase by the other rules (`resumeAllowed`, asking `stateBlocker`) and in executing for an
 * approved session's pickup (`pickupAllowed`). A phase's resume guards are tried in their order. The bins do not evaluate it: `npm run build` reads it into
 * src/generated/phase-table.ts (evaluating xstate took ~10% of a hook's start-up), and
 * tests/unit/core/machine-source.test.ts checks the two agree; tests/unit/core/phases.test.ts checks it against the
 * phase names and the resume rules.
 */
export const phaseMachine = setup({
  types: { events: {} as PhaseEvent },
  guards: {
    resumeAllowed: ({ event }) =>
      event.type === 'resume' && stateBlocker(event.facts, event.now, event.limits) === null,
    // An approved session waits in executing for its agent: resumed once, by the same rules less the ready flag.
    pickupAllowed: ({ event }) =>
      event.type === 'resume' &&
      awaitsPickup(event.facts) &&
      stateBlocker({ ...event.facts, resume_ready: true }, event.now, event.limits) === null,
    // An interrupted session waits in whatever working phase its agent died in, without the idle timeout.
    carryOnAllowed: ({ event }) =>
      event.type === 'resume' &&
      awaitsCarryOn(event.facts) &&
      carryOnBlocker(event.facts, event.now, event.limits) === null,
  },
}).createMachine({
  id: 'session',
  initial: 'initializing',
  states: {
    initializing: {
      on: {
        'to.investigating': 'investigating',
        'to.planning': 'planning',
        'to.approval': 'approval',
        'to.executing': 'executing',
        ...END,
        resume: { target: 'initializing', guard: 'carryOnAllowed' },
      },
    },
    investigating: {
      on: {
        'to.planning': 'planning',
        'to.approval': 'approval',
        'to.executing': 'executing',
        ...END,
        resume: [
          { target: 'investigating', guard: 'carryOnAllowed' },
          { target: 'investigating', guard: 'resumeAllowed' },
        ],
      },
    },
    planning: {
      on: {
        'to.investigating': 'investigating',
        'to.approval': 'approval',
        'to.executing': 'executing',
        ...END,
        resume: [
          { target: 'planning', guard: 'carryOnAllowed' },
          { target: 'planning', guard: 'resumeAllowed' },
        ],
      },
    },
    approval: {
      on: {
        'to.investigating': 'investigating',
        'to.planning': 'planning',
        'to.executing': 'executing',
        ...END,
        resume: [
          { target: 'approval', guard: 'carryOnAllowed' },
          { target: 'approval', guard: 'resumeAllowed' },
        ],
      },
    },
    executing: {
      on: {
        'to.validating': 'validating',
        'to.approval': 'approval',
        'to.investigating': 'investigating',
        'to.planning': 'planning',
        ...END,
        resume: [
          { target: 'executing', guard: 'carryOnAllowed' },
          { target: 'executing', guard: 'pickupAllowed' },
        ],
      },
    },
    validating: {
      on: {
        'to.executing': 'executing',
        'to.planning': 'planning',
        ...END,
        resume: { target: 'validating', guard: 'carryOnAllowed' },
      },
    },
    completed: { type: 'final' },
    failed: { type: 'final' },
    abandoned: { type: 'final' },
  },
});

/** The guards of the machine's `resume` transitions. */
export type ResumeGuard = 'resumeAllowed' | 'pickupAllowed' | 'carryOnAllowed';

/**
 * What the machine allows in one phase: the phases it may move to (table order, final phases last), and the guards of
 * its `resume` transitions, in the order they are tried (empty: no resume in this phase).
 */
export interface PhaseRow {
  readonly moves: readonly Phase[];
  readonly resume: readonly ResumeGuard[];
}

const MOVE_PREFIX = 'to.';

/** The machine's transitions as a table, read from its state nodes. */
export function phaseTableOf(machine: typeof phaseMachine): Readonly<Record<Phase, PhaseRow>> {
  const states = machine.states as unknown as Record<
    string,
    { readonly ownEvents: readonly string[]; readonly on: Record<string, readonly { readonly guard?: unknown }[]> }
  >;
  return Object.fromEntries(
    PHASES.map((phase) => {
      const node = states[phase]!;
      const moves = node.ownEvents.flatMap((event) =>
        event.startsWith(MOVE_PREFIX) ? [event.slice(MOVE_PREFIX.length) as Phase] : [],
      );
      const transitions = node.ownEvents.includes('resume') ? (node.on.resume ?? []) : [];
      const resume = transitions.map((transition) => guardName(transition.guard));
      return [phase, { moves, resume }];
    }),
  ) as unknown as Record<Phase, PhaseRow>;
}

/** The source text of src/generated/phase-table.ts for a table (prettier-formatted as written). */
export function renderPhaseTable(table: Readonly<Record<Phase, PhaseRow>>): string {
  const rows = PHASES.map((phase) => {
    const { moves, resume } = table[phase];
    const list = moves.length === 0 ? '[]' : `[${moves.map((to) => `'${to}'`).join(', ')}]`;
    const guards = resume.length === 0 ? '[]' : `[${resume.map((guard) => `'${guard}'`).join(', ')}]`;
    return `  ${phase}: {\n    moves: ${list},\n    resume: ${guards},\n  },`;
  });
  return [
    '// Generated by `npm run build` (scripts/phase-table.mjs) from the machine in phase-machine.ts: do not edit.',
    '// tests/unit/core/machine-source.test.ts checks that it is exactly what the machine says.',
    "import type { PhaseRow } from '../core/phase-machine';",
    "import type { Phase } from '../core/phase-names';",
    '',
    '/** Per phase: where the machine may move from it, and the guards of its `resume` transitions (in order). */',
    'export const PHASE_TABLE: Readonly<Record<Phase, PhaseRow>> = {',
    ...rows,
    '};',
    '',
  ].join('\n');
}

// --- internal ---

function guardName(guard: unknown): ResumeGuard {
  const name = typeof guard === 'object' && guard !== null ? (guard as { type?: unknown }).type : guard;
  if (name !== 'resumeAllowed' && name !== 'pickupAllowed' && name !== 'carryOnAllowed')
    throw new Error(`Unknown resume guard ${String(name)}`);
  return name;
}
