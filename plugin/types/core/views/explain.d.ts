import type { Limits } from '../limits';
import { type ResumeReason } from '../rules';
import type { SessionState } from '../state';
/** One resume rule applied to a session: whether it passes, the measured value and the limit, and a sentence. */
export interface ResumeCheck {
    readonly rule: 'project' | 'phase' | 'resume_ready' | 'clock' | 'idle' | 'errors';
    readonly ok: boolean;
    /**
     * What was measured: the session's project (null: none), the phase, the flag, seconds ahead of the clock, seconds
     * idle, the error count.
     */
    readonly value: string | number | boolean | null;
    /** The limit it is held to (minutes for the clock and idle rules, a count for errors); null for phase and flag. */
    readonly limit: number | null;
    /** `idle 41 minutes of 30 allowed`, `3 errors of 3 allowed`, `clock ahead by 5 minutes (bound 1 minute)`. */
    readonly text: string;
}
/** The resume answer with every fact behind it (`show`, `should-resume --explain`). */
export interface ResumeExplanation {
    readonly should_resume: boolean;
    readonly reason: ResumeReason;
    /**
     * Every rule, in the order the verdict applies them; the first failing one is the reason. The `project` rule is
     * listed only when it fails.
     */
    readonly checks: readonly ResumeCheck[];
}
/**
 * Explains the resume verdict on a valid session at `now`: each rule with the measured fact and its limit. The
 * reason is the machine's (resumeVerdict); the checks say why, with numbers, so a person need not redo the sums.
 * With `project` (the caller's), a session of another project (or of none) is never resumed there: the reason is
 * `other_project` (`unassigned`), and a first rule, `project`, says so (it is left out when it holds).
 */
export declare function explainResume(state: SessionState, now: Date, limits: Limits, project?: string): ResumeExplanation;
