import { SessionError } from '../errors';
import { PHASES, type Phase } from '../phase-names';
import { phaseMachine } from '../phase-machine';

/** One state of the phase machine as read from its definition. */
export interface StateDescription {
  readonly phase: Phase;
  readonly final: boolean;
  /** Working phases it may move to (`to.<phase>` transitions), in the definition's order. */
  readonly moves: readonly Phase[];
  /** Final phases it may end in. */
  readonly ends: readonly Phase[];
  /** The guards of its `resume` transitions, in the order they are tried; empty when a resume is refused here. */
  readonly resume_guards: readonly string[];
}

/** The phase machine, read from the XState definition itself (`agent-session machine`). */
export interface MachineDescription {
  readonly id: string;
  readonly initial: Phase;
  readonly states: readonly StateDescription[];
  readonly final_states: readonly Phase[];
  /** What each resume guard checks besides the phase (core/rules.ts `stateBlocker`, `awaitsPickup`, `carryOnBlocker`). */
  readonly resume_guards: Readonly<Record<string, readonly string[]>>;
}

/** What the `resumeAllowed` guard checks (its code is core/rules.ts `stateBlocker`; its reasons are the README's). */
const GUARD_RULES = [
  'resume_ready is true',
  'last_updated no more than the clock-skew bound (1 min) ahead of the clock',
  'idle no longer than the resume timeout (30 min by default)',
  'error_count below the error limit (3 by default)',
] as const;

/**
 * Reads the machine's states, transitions, final states and the resume guard from `phaseMachine` (its state nodes),
 * so every picture of the machine (`machine`, the README's table and diagram) comes from the one definition.
 */
export function describeMachine(): MachineDescription {
  const nodes = phaseMachine.states as unknown as Record<string, MachineNode>;
  const states = PHASES.map((phase): StateDescription => {
    const node = nodes[phase];
    if (node === undefined) throw new SessionError('E_CORRUPT', `The phase machine has no state \`${phase}\``);
    const targets: Phase[] = [];
    const resumeGuards: string[] = [];
    for (const [event, transitions] of Object.entries(node.on)) {
      for (const transition of transitions) {
        if (event === 'resume') resumeGuards.push(guardName(transition.guard));
        else targets.push(...transition.target.map((target) => target.key as Phase));
      }
    }
    const final = node.type === 'final';
    return {
      phase,
      final,
      moves: targets.filter((target) => nodes[target]?.type !== 'final'),
      ends: targets.filter((target) => nodes[target]?.type === 'final'),
      resume_guards: resumeGuards,
    };
  });
  const initial = (phaseMachine.config as { initial?: unknown }).initial;
  return {
    id: phaseMachine.id,
    initial: (typeof initial === 'string' ? initial : 'initializing') as Phase,
    states,
    final_states: states.filter((state) => state.final).map((state) => state.phase),
    resume_guards: {
      resumeAllowed: GUARD_RULES,
      pickupAllowed: [
        'the last history entry is approval → executing, made by an `approve` (the last decision), not yet resumed',
        ...GUARD_RULES.slice(1),
      ],
      carryOnAllowed: [
        'its agent died of a host failure (an API error, a usage limit) and no delegation has carried it on since',
        GUARD_RULES[1],
        GUARD_RULES[3],
        '(no idle timeout: it waits until it is carried on or `cleanup` removes it)',
      ],
    },
  };
}

/** The machine as a Mermaid `stateDiagram-v2`: moves as arrows, resumes as self-loops, final states to [*]. */
export function machineMermaid(machine: MachineDescription): string {
  const lines = ['stateDiagram-v2', `  [*] --> ${machine.initial}`];
  for (const state of machine.states) {
    for (const target of state.moves) lines.push(`  ${state.phase} --> ${target}`);
    if (state.resume_guards.length > 0)
      lines.push(`  ${state.phase} --> ${state.phase}: resume [${state.resume_guards.join(' or ')}]`);
  }
  // Every working phase may end in every final phase: drawn once per pair would be 18 arrows; a note says it.
  const working = machine.states.filter((state) => !state.final);
  const endsEverywhere = working.every((state) => state.ends.length === machine.final_states.length);
  if (endsEverywhere) {
    lines.push(
      `  note right of ${working.at(-1)!.phase}: any working phase may end in ${machine.final_states.join(', ')}`,
    );
  } else {
    for (const state of working) for (const end of state.ends) lines.push(`  ${state.phase} --> ${end}`);
  }
  for (const phase of machine.final_states) lines.push(`  ${phase} --> [*]`);
  return `${lines.join('\n')}\n`;
}

/** The machine as the README's Markdown table: each phase, where it may move, where it may end, whether it resumes. */
export function machineTable(machine: MachineDescription): string {
  const rows = ['| phase | moves to | may end in | resume |', '|---|---|---|---|'];
  for (const state of machine.states) {
    const moves = state.final ? 'nothing: final' : state.moves.join(', ');
    const ends = state.final ? '' : state.ends.join(', ');
    const resume =
      state.resume_guards.length === 0
        ? 'no'
        : `yes, if ${state.resume_guards.map((guard) => `\`${guard}\``).join(' or ')}`;
    rows.push(`| ${state.phase} | ${moves} | ${ends} | ${resume} |`);
  }
  return `${rows.join('\n')}\n`;
}

// --- internal ---

interface MachineNode {
  readonly type: string;
  readonly on: Readonly<
    Record<string, readonly { readonly target: readonly { readonly key: string }[]; readonly guard?: unknown }[]>
  >;
}

function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && typeof (guard as { type?: unknown }).type === 'string')
    return (guard as { type: string }).type;
  return 'guarded';
}
