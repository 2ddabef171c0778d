/** Every phase a session can be in, in lifecycle order. */
export declare const PHASES: readonly ["initializing", "investigating", "planning", "approval", "executing", "validating", "completed", "failed", "abandoned"];
export type Phase = (typeof PHASES)[number];
/** Phases a session ends in; nothing leaves them. */
export declare const FINAL_PHASES: readonly ["completed", "failed", "abandoned"];
export type FinalPhase = (typeof FINAL_PHASES)[number];
export type WorkPhase = Exclude<Phase, FinalPhase>;
/** Phases a session works in (every phase but the final ones), in lifecycle order. */
export declare const WORK_PHASES: readonly ["initializing", "investigating", "planning", "approval", "executing", "validating"];
/** Where an approved session waits for its agent (`approve` moves it there; see rules.ts awaitsPickup). */
export declare const PICKUP_PHASE: "executing";
/** Phases in which an agent is waiting for the user and can pick up where it stopped. */
export declare const RESUMABLE_PHASES: readonly ["investigating", "planning", "approval"];
/** True when `value` names a phase. */
export declare function isPhase(value: unknown): value is Phase;
/** True for completed, failed and abandoned. */
export declare function isFinalPhase(phase: Phase): phase is FinalPhase;
/** True for investigating, planning and approval: `resume_ready` is exactly this. */
export declare function isResumablePhase(phase: Phase): boolean;
