import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Sessions } from '../../../src/service/sessions';
import { FileStore } from '../../../src/store/file-store';
import { checkHookOutput } from '../../support/claude-hook-output';

export const DIST = resolve(__dirname, '../../../dist');
export const BINS = {
  'pre-delegate': join(DIST, 'pre-delegate.cjs'),
  'subagent-stop': join(DIST, 'subagent-stop.cjs'),
} as const;
export type HookBinName = keyof typeof BINS;
export const FIXTURES = resolve(__dirname, '../../fixtures/claude-code');

/** A temp Claude Code project with a `.claude/` folder; removed by `cleanup`. */
export interface Project {
  readonly dir: string;
  readonly root: string;
  readonly sessions: () => Sessions;
  readonly cleanup: () => void;
}

export function makeProject(): Project {
  const dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  mkdirSync(join(dir, '.claude'));
  const root = join(dir, '.claude', 'session');
  return {
    dir,
    root,
    sessions: () => new Sessions({ store: new FileStore(root) }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The environment of a hook run by Claude Code in `project` (no AGENT_SESSION_DIR: the root comes from Claude's variables). */
/**
 * A fresh temp project for each test of the calling file (removed after it), and its `.claude/settings.json` path.
 * Read the fields inside tests: they are replaced before each one.
 */
export function eachProject(): { project: Project; settingsFile: string } {
  const current = {} as { project: Project; settingsFile: string };
  beforeEach(() => {
    current.project = makeProject();
    // The file init writes: Claude Code's per-machine settings (the hooks name this machine's node and bins).
    current.settingsFile = join(current.project.dir, '.claude', 'settings.local.json');
  });
  afterEach(() => current.project.cleanup());
  return current;
}

export function hookEnv(project: Project, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_EXTRA_CA_CERTS: '', CLAUDE_PROJECT_DIR: project.dir };
  delete env.AGENT_SESSION_DIR;
  delete env.AGENT_SESSION_LOG_DIR;
  return { ...env, ...extra };
}

/** A fixture with its `cwd` (when it has one) pointed at the project. */
export function fixture(name: string, project: Project): Record<string, unknown> {
  const value = JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
  return 'cwd' in value ? { ...value, cwd: project.dir } : value;
}

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

export interface HookRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The parsed answer (for a Claude Code payload, checked against its output schema; null when nothing was printed). */
  readonly answer: Record<string, unknown> | null;
}

/** Runs a built hook bin on one payload, the way Claude Code does (JSON on stdin), and checks its answer. */
export function runHookBin(bin: HookBinName, payload: unknown, env: NodeJS.ProcessEnv, cwd?: string): HookRun {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const result = spawnSync(process.execPath, [BINS[bin]], {
    input,
    env,
    cwd: cwd ?? tmpdir(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const event =
    typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>).hook_event_name : undefined;
  // Claude Code payloads must get Claude Code answers; a seed-protocol payload gets its own JSON answer.
  const answer =
    typeof event === 'string'
      ? checkHookOutput(event, result.stdout)
      : (JSON.parse(result.stdout) as Record<string, unknown>);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, answer };
}

/** The additionalContext of an answer (throws when there is none). */
export function contextOf(run: HookRun): string {
  const specific = run.answer?.hookSpecificOutput as { additionalContext?: unknown } | undefined;
  if (typeof specific?.additionalContext !== 'string') throw new Error(`no additionalContext in ${run.stdout}`);
  return specific.additionalContext;
}

/** Our policy on every answer: never a permission decision, never a block. */
export function expectNoDecision(run: HookRun): void {
  const specific = (run.answer?.hookSpecificOutput ?? {}) as Record<string, unknown>;
  expect(specific.permissionDecision).toBeUndefined();
  expect(run.answer?.decision).toBeUndefined();
}
