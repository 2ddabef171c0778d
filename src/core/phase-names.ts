/** Every phase a session can be in, in lifecycle order. */
export const PHASES = [
  'initializing',
  'investigating',
  'planning',
  'approval',
  'executing',
  'validating',
  'completed',
  'failed',
  'abandoned',
] as const;
export type Phase = (typeof PHASES)[number];

/** Phases a session ends in; nothing leaves them. */
export const FINAL_PHASES = ['completed', 'failed', 'abandoned'] as const;
export type FinalPhase = (typeof FINAL_PHASES)[number];
export type WorkPhase = Exclude<Phase, FinalPhase>;

/** Phases a session works in (every phase but the final ones), in lifecycle order. */
export const WORK_PHASES = [
  'initializing',
  'investigating',
  'planning',
  'approval',
  'executing',
  'validating',
] as const satisfies readonly WorkPhase[];

/** Where an approved session waits for its agent (`approve` moves it there; see rules.ts awaitsPickup). */
export const PICKUP_PHASE = 'executing' as const;

/** Phases in which an agent is waiting for the user and can pick up where it stopped. */
export const RESUMABLE_PHASES = ['investigating', 'planning', 'approval'] as const;

/** True when `value` names a phase. */
export function isPhase(value: unknown): value is Phase {
  return (PHASES as readonly unknown[]).includes(value);
}

/** True for completed, failed and abandoned. */
export function isFinalPhase(phase: Phase): phase is FinalPhase {
  return (FINAL_PHASES as readonly Phase[]).includes(phase);
}

/** True for investigating, planning and approval: `resume_ready` is exactly this. */
export function isResumablePhase(phase: Phase): boolean {
  return (RESUMABLE_PHASES as readonly Phase[]).includes(phase);
}
