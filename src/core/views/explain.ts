import { interruptionCause, isInterrupted } from '../interruption';
import type { Limits } from '../limits';
import { RESUMABLE_PHASES, isResumablePhase } from '../phase-names';
import { resumeVerdict } from '../phases';
import { counted } from '../plural';
import { allowsResume, awaitsPickup, type ResumeReason } from '../rules';
import type { SessionState } from '../state';
import { longDuration } from './time-text';

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
export function explainResume(state: SessionState, now: Date, limits: Limits, project?: string): ResumeExplanation {
  const own = project === undefined || state.project === project;
  const reason: ResumeReason = own
    ? resumeVerdict(state, now, limits)
    : state.project === undefined
      ? 'unassigned'
      : 'other_project';
  const idleSeconds = Math.floor((now.getTime() - Date.parse(state.last_updated)) / 1000);
  const aheadSeconds = -idleSeconds;
  const interrupted = isInterrupted(state) ? state.interruption : undefined;
  const pickup = interrupted === undefined && awaitsPickup(state);
  const resumable = isResumablePhase(state.phase) || pickup || interrupted !== undefined;
  const clockOk = aheadSeconds <= limits.clockSkewMinutes * 60;
  // Said only when it fails (it is then the reason): a session of the caller's project is the usual case.
  const projectCheck: ResumeCheck[] = own
    ? []
    : [
        {
          rule: 'project',
          ok: false,
          value: state.project ?? null,
          limit: null,
          text:
            state.project === undefined
              ? 'the session belongs to no project (unassigned: `adopt` gives it this one)'
              : `the session belongs to another project (${JSON.stringify(state.project)})`,
        },
      ];
  const checks: ResumeCheck[] = [
    ...projectCheck,
    {
      rule: 'phase',
      ok: resumable,
      value: state.phase,
      limit: null,
      text:
        interrupted !== undefined
          ? `phase ${state.phase}: interrupted by ${interruptionCause(interrupted.error)}, waiting to be carried on`
          : pickup
            ? `phase ${state.phase}: approved, waiting for its agent to pick it up (resumed once)`
            : resumable
              ? `phase ${state.phase} is resumable`
              : `phase ${state.phase} is not resumable (only ${RESUMABLE_PHASES.join(', ')}, executing just after an approval, or any working phase after an interruption)`,
    },
    {
      rule: 'resume_ready',
      // An approval's pickup happens in executing, where the flag is false by design (core/phases.ts pickupAllowed); an
      // interruption is carried on in whatever phase it happened (carryOnAllowed).
      ok: state.resume_ready || pickup || interrupted !== undefined,
      value: state.resume_ready,
      limit: null,
      text: state.resume_ready
        ? 'resume_ready is true'
        : pickup
          ? 'resume_ready is false (not needed for an approval pickup)'
          : interrupted !== undefined
            ? 'resume_ready is false (not needed to carry on an interruption)'
            : 'resume_ready is false',
    },
    {
      rule: 'clock',
      ok: clockOk,
      value: Math.max(0, aheadSeconds),
      limit: limits.clockSkewMinutes,
      text:
        aheadSeconds > 0
          ? `clock ahead by ${longDuration(aheadSeconds)} (bound ${longDuration(limits.clockSkewMinutes * 60)})`
          : 'last activity is not ahead of the clock',
    },
    {
      rule: 'idle',
      ok: interrupted !== undefined || idleSeconds <= limits.resumeTimeoutMinutes * 60,
      value: Math.max(0, idleSeconds),
      limit: interrupted === undefined ? limits.resumeTimeoutMinutes : null,
      text:
        interrupted !== undefined
          ? `idle ${longDuration(Math.max(0, idleSeconds))} (no idle limit after an interruption: it waits until carried on or removed by cleanup)`
          : `idle ${longDuration(Math.max(0, idleSeconds))} of ${longDuration(limits.resumeTimeoutMinutes * 60)} allowed`,
    },
    {
      rule: 'errors',
      ok: state.error_count < limits.maxErrors,
      value: state.error_count,
      limit: limits.maxErrors,
      text: `${counted(state.error_count, 'error')} of ${limits.maxErrors}`,
    },
  ];
  return { should_resume: allowsResume(reason), reason, checks };
}
