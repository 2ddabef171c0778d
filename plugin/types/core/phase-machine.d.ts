import type { Limits } from './limits';
import { type Phase } from './phase-names';
import { type ResumeFacts } from './rules';
type MoveEvent = {
    type: `to.${Phase}`;
};
type ResumeEvent = {
    type: 'resume';
    facts: ResumeFacts;
    now: Date;
    limits: Limits;
};
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
export declare const phaseMachine: import("xstate").StateMachine<import("xstate").MachineContext, MoveEvent | ResumeEvent, {}, never, never, {
    type: "resumeAllowed";
    params: unknown;
} | {
    type: "pickupAllowed";
    params: unknown;
} | {
    type: "carryOnAllowed";
    params: unknown;
}, never, "initializing" | "investigating" | "planning" | "approval" | "executing" | "validating" | "completed" | "failed" | "abandoned", string, import("xstate").NonReducibleUnknown, import("xstate").NonReducibleUnknown, import("xstate").EventObject, import("xstate").MetaObject, {
    id: "session";
    states: {
        readonly initializing: {};
        readonly investigating: {};
        readonly planning: {};
        readonly approval: {};
        readonly executing: {};
        readonly validating: {};
        readonly completed: {};
        readonly failed: {};
        readonly abandoned: {};
    };
}, import("xstate").MetaObject>;
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
/** The machine's transitions as a table, read from its state nodes. */
export declare function phaseTableOf(machine: typeof phaseMachine): Readonly<Record<Phase, PhaseRow>>;
/** The source text of src/generated/phase-table.ts for a table (prettier-formatted as written). */
export declare function renderPhaseTable(table: Readonly<Record<Phase, PhaseRow>>): string;
export {};
