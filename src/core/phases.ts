import { setup, transition, type SnapshotFrom } from 'xstate';
import { SessionError, show } from './errors';
import type { Limits } from './limits';
import { FINAL_PHASES, PHASES, RESUMABLE_PHASES, isFinalPhase, type Phase, type WorkPhase } from './phase-names';
import { awaitsPickup, stateBlocker, type ResumeFacts, type ResumeReason } from './rules';

/**
 * Where each working phase may go besides the final phases (the contract's transition table): the input the
 * machine is built from. Ask the machine (`allowedTargets`, `movePhase`), not this table.
 */
export const MOVES: Readonly<Record<WorkPhase, readonly WorkPhase[]>> = {
  initializing: ['investigating', 'planning', 'approval', 'executing'],
  investigating: ['planning', 'approval', 'executing'],
  planning: ['investigating', 'approval', 'executing'],
  approval: ['investigating', 'planning', 'executing'],
  executing: ['validating', 'approval', 'investigating', 'planning'],
  validating: ['executing', 'planning'],
};

/** Where an approved session waits for its agent (`approve` moves it there; see awaitsPickup). */
export const PICKUP_PHASE = 'executing' as const;

type MoveEvent = { type: `to.${Phase}` };
type ResumeEvent = { type: 'resume'; facts: ResumeFacts; now: Date; limits: Limits };
type PhaseEvent = MoveEvent | ResumeEvent;

/**
 * The session phase machine. It is flat (no invoke, no spawn) and used only as a pure transition function
 * over the phase stored in state.json: every working phase may move as MOVES says or end in a final phase;
 * final phases accept nothing; `resume` exists only in a resumable phase (the phase rule lives here, nowhere else)
 * and its guard asks the other rules (`stateBlocker`).
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
  },
}).createMachine({
  id: 'session',
  initial: 'initializing',
  states: Object.fromEntries(
    PHASES.map((phase) => {
      if (isFinalPhase(phase)) return [phase, { type: 'final' as const }];
      const targets = [...MOVES[phase], ...FINAL_PHASES];
      const on: Record<string, unknown> = Object.fromEntries(targets.map((to) => [`to.${to}`, { target: to }]));
      if ((RESUMABLE_PHASES as readonly Phase[]).includes(phase)) on.resume = { target: phase, guard: 'resumeAllowed' };
      if (phase === PICKUP_PHASE) on.resume = { target: phase, guard: 'pickupAllowed' };
      return [phase, { on }];
    }),
  ) as never,
});

/** The phases `from` may move to, read from the machine's transitions (table order, final phases last). */
export function allowedTargets(from: Phase): readonly Phase[] {
  return stateNode(from).ownEvents.flatMap((event) =>
    event.startsWith(MOVE_PREFIX) ? [event.slice(MOVE_PREFIX.length) as Phase] : [],
  );
}

/**
 * The phase after moving from `from` to `to`.
 * @throws SessionError E_ILLEGAL_TRANSITION when the machine has no such transition
 */
export function movePhase(from: Phase, to: Phase): Phase {
  const snapshot = snapshotAt(from);
  const event: MoveEvent = { type: `to.${to}` };
  if (!snapshot.can(event)) {
    const allowed = allowedTargets(from);
    const expectation = allowed.length === 0 ? `no change: \`${from}\` is final` : `one of ${allowed.join(', ')}`;
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Cannot move from \`${from}\` to ${show(to)}: expected ${expectation}`,
    );
  }
  const [next] = transition(phaseMachine, snapshot, event);
  return next.value as Phase;
}

/**
 * Whether a valid session may be resumed, and why not when it may not. The machine answers the phase question
 * (only a resumable phase has a `resume` transition); the rules answer the rest, each checked once.
 */
export function resumeVerdict(facts: ResumeFacts, now: Date, limits: Limits): ResumeReason {
  if (!stateNode(facts.phase).ownEvents.includes('resume')) return 'phase_not_resumable';
  if (facts.phase === PICKUP_PHASE) {
    // The pickupAllowed guard: only an approved session not yet picked up, its ready flag being false in executing.
    if (!awaitsPickup(facts)) return 'phase_not_resumable';
    return stateBlocker({ ...facts, resume_ready: true }, now, limits) ?? 'session_resumable';
  }
  return stateBlocker(facts, now, limits) ?? 'session_resumable';
}

// --- internal ---

const MOVE_PREFIX = 'to.';

function stateNode(phase: Phase): { readonly ownEvents: readonly string[] } {
  const node = (phaseMachine.states as Record<string, { readonly ownEvents: readonly string[] } | undefined>)[phase];
  if (node === undefined)
    throw new SessionError('E_ILLEGAL_TRANSITION', `Expected a phase, one of ${PHASES.join(', ')}, got ${show(phase)}`);
  return node;
}

function snapshotAt(phase: Phase): SnapshotFrom<typeof phaseMachine> {
  // resolveState rebuilds a real snapshot; transition() on raw JSON throws (xstate 5).
  return phaseMachine.resolveState({ value: phase, context: {} });
}
