import { SessionError, show } from './errors';
import type { Limits } from './limits';
import type { PhaseRow } from './phase-machine';
import { PHASES, type Phase } from './phase-names';
import { PHASE_TABLE } from '../generated/phase-table';
import {
  awaitsCarryOn,
  awaitsPickup,
  carryOnBlocker,
  stateBlocker,
  type ResumeFacts,
  type ResumeReason,
} from './rules';

// The phase rules as the machine (phase-machine.ts) states them, read from the table generated from it at build
// time: a hook answers without evaluating xstate (docs/performance.md). The type-only import keeps xstate out.

/** The phases `from` may move to, as the machine says (table order, final phases last). */
export function allowedTargets(from: Phase): readonly Phase[] {
  return rowOf(from).moves;
}

/**
 * The phase after moving from `from` to `to`.
 * @throws SessionError E_ILLEGAL_TRANSITION when the machine has no such transition
 */
export function movePhase(from: Phase, to: Phase): Phase {
  const allowed = rowOf(from).moves;
  if (!allowed.includes(to)) {
    const expectation = allowed.length === 0 ? `no change: \`${from}\` is final` : `one of ${allowed.join(', ')}`;
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Cannot move from \`${from}\` to ${show(to)}: expected ${expectation}`,
    );
  }
  return to;
}

/**
 * Whether a valid session may be resumed, and why not when it may not. The machine answers the phase question
 * (only a phase with a `resume` transition), its guards say which rules apply, in their order; the rules answer the
 * rest. An interrupted session carried on answers `session_interrupted` (a yes: see rules.ts `allowsResume`).
 */
export function resumeVerdict(facts: ResumeFacts, now: Date, limits: Limits): ResumeReason {
  const guards = rowOf(facts.phase).resume;
  // The carryOnAllowed guard: a session waiting after an interruption, in any working phase, without the idle timeout.
  if (guards.includes('carryOnAllowed') && awaitsCarryOn(facts))
    return carryOnBlocker(facts, now, limits) ?? 'session_interrupted';
  if (guards.includes('resumeAllowed')) return stateBlocker(facts, now, limits) ?? 'session_resumable';
  // The pickupAllowed guard: only an approved session not yet picked up, its ready flag being false in executing.
  if (guards.includes('pickupAllowed') && awaitsPickup(facts))
    return stateBlocker({ ...facts, resume_ready: true }, now, limits) ?? 'session_resumable';
  return 'phase_not_resumable';
}

// --- internal ---

function rowOf(phase: Phase): PhaseRow {
  // Own keys only: a name such as `constructor` is no phase.
  if (typeof phase !== 'string' || !Object.hasOwn(PHASE_TABLE, phase))
    throw new SessionError('E_ILLEGAL_TRANSITION', `Expected a phase, one of ${PHASES.join(', ')}, got ${show(phase)}`);
  return PHASE_TABLE[phase];
}
