import { setup, transition, type SnapshotFrom } from 'xstate';
import { SessionError, show } from './errors';
import type { Limits } from './limits';
import { FINAL_PHASES, PHASES, RESUMABLE_PHASES, isFinalPhase, type Phase, type WorkPhase } from './phase-names';
import { resumeBlocker, type ResumeFacts, type ResumeReason } from './rules';

/** Where each working phase may go besides the final phases (the contract's transition table). */
export const MOVES: Readonly<Record<WorkPhase, readonly WorkPhase[]>> = {
  initializing: ['investigating', 'planning', 'approval', 'executing'],
  investigating: ['planning', 'approval', 'executing'],
  planning: ['investigating', 'approval', 'executing'],
  approval: ['investigating', 'planning', 'executing'],
  executing: ['validating', 'approval', 'investigating', 'planning'],
  validating: ['executing', 'planning'],
};

type MoveEvent = { type: `to.${Phase}` };
type ResumeEvent = { type: 'resume'; facts: ResumeFacts; now: Date; limits: Limits };
type PhaseEvent = MoveEvent | ResumeEvent;

/**
 * The session phase machine. It is flat (no invoke, no spawn) and used only as a pure transition function
 * over the phase stored in state.json: every working phase may move as MOVES says or end in a final phase;
 * final phases accept nothing; `resume` is accepted only in a resumable phase and only when the rules allow it.
 */
export const phaseMachine = setup({
  types: { events: {} as PhaseEvent },
  guards: {
    resumeAllowed: ({ event }) => event.type === 'resume' && resumeBlocker(event.facts, event.now, event.limits) === null,
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
      return [phase, { on }];
    }),
  ) as never,
});

/** The phases `from` may move to, in table order (final phases last). */
export function allowedTargets(from: Phase): readonly Phase[] {
  return isFinalPhase(from) ? [] : [...MOVES[from], ...FINAL_PHASES];
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
    throw new SessionError('E_ILLEGAL_TRANSITION', `Cannot move from \`${from}\` to ${show(to)}: expected ${expectation}`);
  }
  const [next] = transition(phaseMachine, snapshot, event);
  return next.value as Phase;
}

/**
 * Asks the machine whether a valid session may be resumed, and why not when it may not.
 * The machine's `resume` guard is the decision; the rules only name the reason.
 */
export function resumeVerdict(facts: ResumeFacts, now: Date, limits: Limits): ResumeReason {
  const allowed = snapshotAt(facts.phase).can({ type: 'resume', facts, now, limits });
  if (allowed) return 'session_resumable';
  return resumeBlocker(facts, now, limits) ?? 'phase_not_resumable';
}

// --- internal ---

function snapshotAt(phase: Phase): SnapshotFrom<typeof phaseMachine> {
  // resolveState rebuilds a real snapshot; transition() on raw JSON throws (notes §A.1, edge 1).
  return phaseMachine.resolveState({ value: phase, context: {} });
}
