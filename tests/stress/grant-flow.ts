// A permission grant's life through the built bins, for the stress files on faults during a decision: a headless
// Claude Code run's background sub-agent parks a call (PermissionRequest), the user approves it from their own shell,
// the agent asks the identical call again and the hook spends the grant. Each project has its own HOME (the user's
// data folder), store and log folder under a temp root.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseState, type SessionState } from '../../src/core/state';
import { binEnv } from '../helpers';
import { bashPermissionRequest, headlessSubagents } from '../support/claude-subagents';
import { runOutsideAgent, type OutsideRun } from '../support/outside-agent';
import { BIN } from './helpers';

export const TYPE = 'terraform-architect';
const SESSION = '11111111-2222-3333-4444-555555555555';

/** A project a headless run works in, and how its hooks and its user's commands are run there. */
export interface GrantProject {
  readonly dir: string;
  readonly store: string;
  /** The environment of a hook or command here (its HOME, store, logs), with `extra` over it. */
  env(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv;
  /** The fields of a hook's payload that say which Claude Code session it belongs to. */
  readonly base: Record<string, string>;
  /** Runs a hook bin (pre-delegate by default) with `payload`, synchronously. */
  hook(
    payload: Record<string, unknown>,
    extra?: Record<string, string | undefined>,
    bin?: string,
  ): SpawnSyncReturns<string>;
  /** Runs the CLI as the user does, from their own shell (approve and reject refuse an agent's). */
  user(args: readonly string[], extra?: Record<string, string | undefined>): OutsideRun;
  /** The session's state.json, parsed and validated (throws on a torn or invalid file); the file store's only. */
  state(id: string): SessionState;
}

/**
 * A project under `root` whose headless run has the background sub-agents `agents`; `storeEnv` chooses another store
 * for every hook and command there (a PostgreSQL database and schema).
 */
export function grantProject(
  root: string,
  agents: readonly string[],
  storeEnv: Record<string, string> = {},
): GrantProject {
  const dir = join(root, 'proj');
  const home = join(root, 'home');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const store = join(dir, '.claude', 'session');
  const base = headlessSubagents(home, dir, SESSION, TYPE, agents);
  const env = (extra: Record<string, string | undefined> = {}) =>
    binEnv({
      HOME: home,
      CLAUDE_PROJECT_DIR: dir,
      AGENT_SESSION_LOG_DIR: join(root, 'logs'),
      AGENT_SESSION_CONFIG: undefined,
      AGENT_SESSION_DEBUG: undefined,
      ...storeEnv,
      ...extra,
    });
  return {
    dir,
    store,
    env,
    base,
    hook: (payload, extra = {}, bin = BIN.preDelegate) =>
      spawnSync(process.execPath, [bin], {
        cwd: dir,
        env: env(extra),
        input: JSON.stringify({ ...base, ...payload }),
        encoding: 'utf8',
        timeout: 30_000,
      }),
    user: (args, extra = {}) => runOutsideAgent(BIN.cli, args, { cwd: dir, env: env(extra) }),
    state: (id) => parseState(JSON.parse(readFileSync(join(store, id, 'state.json'), 'utf8'))),
  };
}

/** The payload of sub-agent `agent`'s request to run Bash with `input`. */
export const askPayload = (agent: string, input: unknown) => bashPermissionRequest(agent, TYPE, input);

/** The behaviour a PermissionRequest answer gives (`allow`, `deny`), `none` for no answer; throws on invalid JSON. */
export function behaviour(stdout: string): string {
  if (stdout.trim() === '') return 'none';
  const answer = JSON.parse(stdout) as { hookSpecificOutput?: { decision?: { behavior?: string } } };
  return String(answer.hookSpecificOutput?.decision?.behavior);
}

/**
 * Agent `agent` starts (its session made by SubagentStart), works in executing, then asks `input`, which nobody can
 * answer: the session is parked on it. Then it stops. Returns the session id.
 */
export function parkedGrantSession(p: GrantProject, agent: string, input: unknown): string {
  const started = p.hook({ hook_event_name: 'SubagentStart', agent_id: agent, agent_type: TYPE });
  const id = /session (agent-[\w-]+)/.exec(started.stdout)?.[1];
  if (id === undefined) throw new Error(`no session started: ${started.stdout.slice(0, 300)} ${started.stderr}`);
  const executing = p.user(['update', id, '--phase', 'executing']);
  if (executing.status !== 0) throw new Error(`update: ${executing.stderr}`);
  const asked = p.hook(askPayload(agent, input));
  if (behaviour(asked.stdout) !== 'deny') throw new Error(`not parked: ${asked.stdout} ${asked.stderr}`);
  p.hook({ hook_event_name: 'SubagentStop', agent_id: agent, agent_type: TYPE }, {}, BIN.subagentStop);
  return id;
}

/** Agent `agent` starts and resumes the session (linked to it), as the next delegation does. */
export function resumeBy(p: GrantProject, agent: string): void {
  const started = p.hook({ hook_event_name: 'SubagentStart', agent_id: agent, agent_type: TYPE });
  if (!/resumes session/.test(started.stdout)) throw new Error(`not resumed: ${started.stdout.slice(0, 300)}`);
}
