import { withClaudeLink } from '../../src/core/claude-link';
import { approveState, rejectState } from '../../src/core/decision';
import { AT_TERMINAL } from './origin';
import { withResume } from '../../src/core/history';
import { generateId } from '../../src/core/ids';
import { isFinalPhase } from '../../src/core/phase-names';
import { applyChange, finalizeState, newSession } from '../../src/core/session';
import type { SessionState } from '../../src/core/state';

/** Agent names of a generated store; one is hostile markup, to be shown as text everywhere. */
export const GENERATED_AGENTS = [
  'terraform-architect',
  'code-reviewer',
  'db-migrator',
  'test-writer',
  'docs-writer',
  'security-auditor',
  '<img src=x onerror=alert(1)>',
] as const;

/**
 * Sessions as agents and users would leave them over `days` days before `now`, built only through the core's own
 * state changes (so every one is coherent: a session the machine could produce): investigations, plans, approvals
 * approved or rejected (back to planning, or abandoned), resumes, errors, Claude Code links, outcomes, and sessions
 * still waiting. Deterministic for a seed (a small LCG: the tests and scripts/generate-store.ts agree).
 */
export function generateSessions(options: { count: number; now: Date; seed?: number; days?: number }): SessionState[] {
  const random = lcg(options.seed ?? 1);
  const nowMs = options.now.getTime();
  const span = (options.days ?? 7) * 86_400_000;
  const states: SessionState[] = [];
  for (let index = 0; index < options.count; index++) {
    const agent = GENERATED_AGENTS[Math.floor(random() * GENERATED_AGENTS.length)]!;
    // A tenth start within the last half hour: they are the ones still waiting (and resumable) now.
    const recent = random() < 0.1;
    // The others start early enough for their whole story (a few hours at most) to end before `now`.
    let at = nowMs - (recent ? random() * 1_800_000 : 5 * 3_600_000 + random() * span);
    const tick = (maxMinutes: number): Date => {
      at = Math.min(nowMs, at + (0.2 + random() * maxMinutes) * 60_000);
      return new Date(at);
    };
    const hex = (index + 0x10000000).toString(16).slice(-8);
    let state = newSession(
      {
        agent_id: generateId(new Date(at), hex),
        agent_name: agent,
        purpose: random() < 0.5 ? 'approval_workflow' : 'claude_code_subagent',
        metadata: { task_id: `T${String(index).padStart(5, '0')}` },
      },
      new Date(at),
    );
    const step = (change: (s: SessionState, when: Date) => SessionState, maxMinutes = 8): void => {
      if (isFinalPhase(state.phase)) return;
      state = change(state, tick(maxMinutes));
    };
    if (random() < 0.4) step((s, when) => withClaudeLink(s, { agent_id: `a${hex}${hex}` }, when), 1);
    step((s, when) => applyChange(s, { phase: random() < 0.5 ? 'investigating' : 'planning' }, when));
    if (random() < 0.3)
      step((s, when) => applyChange(s, { metadata: { findings: `found ${index % 7} issues` } }, when));
    if (random() < 0.25) step((s, when) => withResume(s, when), 20);
    if (random() < 0.15) step((s, when) => applyChange(s, { error: `step ${index % 5} failed: exit 1` }, when));
    step((s, when) =>
      applyChange(s, { phase: 'approval', metadata: { plan: `plan ${index}: ${1 + (index % 4)} changes` } }, when),
    );
    if (recent && random() < 0.7) {
      states.push(state);
      continue;
    }
    if (random() < 0.25) {
      step((s, when) => rejectState(s, { by: 'alice', reason: 'split it in two' }, AT_TERMINAL, when), 40);
      if (random() < 0.3) step((s, when) => withResume(s, when), 20);
      step((s, when) => applyChange(s, { phase: 'approval' }, when));
    }
    const roll = random();
    if (roll < 0.1)
      step((s, when) => rejectState(s, { by: 'bob', reason: 'not needed', to: 'abandoned' }, AT_TERMINAL, when), 60);
    else if (roll < 0.2) {
      // Left waiting: expired by now unless recent.
    } else {
      step(
        (s, when) => approveState(s, { by: random() < 0.5 ? 'alice' : 'bob', note: 'go ahead' }, AT_TERMINAL, when),
        60,
      );
      step((s, when) => applyChange(s, { phase: 'validating' }, when), 30);
      if (random() < 0.1) step((s, when) => applyChange(s, { error: 'validation failed' }, when));
      step((s, when) => finalizeState(s, random() < 0.85 ? 'completed' : 'failed', 'done', when), 10);
    }
    states.push(state);
  }
  return states;
}

/** A small deterministic generator in [0, 1) (Numerical Recipes' LCG). */
function lcg(seed: number): () => number {
  let value = seed >>> 0;
  return () => {
    value = (Math.imul(value, 1664525) + 1013904223) >>> 0;
    return value / 0x1_0000_0000;
  };
}
