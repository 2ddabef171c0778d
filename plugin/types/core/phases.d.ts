import type { Limits } from './limits';
import { type Phase } from './phase-names';
import { type ResumeFacts, type ResumeReason } from './rules';
/** The phases `from` may move to, as the machine says (table order, final phases last). */
export declare function allowedTargets(from: Phase): readonly Phase[];
/**
 * The phase after moving from `from` to `to`.
 * @throws SessionError E_ILLEGAL_TRANSITION when the machine has no such transition
 */
export declare function movePhase(from: Phase, to: Phase): Phase;
/**
 * Whether a valid session may be resumed, and why not when it may not. The machine answers the phase question
 * (only a phase with a `resume` transition), its guards say which rules apply, in their order; the rules answer the
 * rest. An interrupted session carried on answers `session_interrupted` (a yes: see rules.ts `allowsResume`).
 */
export declare function resumeVerdict(facts: ResumeFacts, now: Date, limits: Limits): ResumeReason;
