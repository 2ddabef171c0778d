import type { PhaseRow } from '../core/phase-machine';
import type { Phase } from '../core/phase-names';
/** Per phase: where the machine may move from it, and the guards of its `resume` transitions (in order). */
export declare const PHASE_TABLE: Readonly<Record<Phase, PhaseRow>>;
