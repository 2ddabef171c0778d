// Guarantee: one session per Claude agent, whatever the order or overlap of its events. Claude Code fires
// PostToolUse(async_launched) and SubagentStart for a background agent at the same moment, in two processes, and
// its SubagentStop may overtake either. Each round fires the three events of a fresh agent id (`a` + 16 hex)
// through the built bins, wired as `init` wires them, in a random order with random small delays, all at once.
// The same rounds run on the file store, and on the PostgreSQL store with the hooks going through its relay (started
// by the first hooks, as on a user's machine): the attach's transaction held on the relay keeps the same guarantee.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SessionState } from '../../src/core/state';
import { Sessions } from '../../src/service/sessions';
import type { SessionStore } from '../../src/service/store';
import { FileStore } from '../../src/store/file-store';
import { describeWithDatabase } from '../support/test-database';
import { BIN, childEnv, makeTemp, prng, removeTemp, runBin, seedOf } from './helpers';

const ROUNDS = 100;
/** Rounds run at once (each in its own project): 2 cores, up to 6 hook processes a round. */
const BATCH = 4;
const FIXTURES = resolve(__dirname, '..', 'fixtures', 'claude-code');
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

type Kind = 'fresh' | 'parked' | 'race';
interface AgentRun {
  readonly claudeAgent: string;
  /** SubagentStart's additionalContext, or null when it printed nothing. */
  startContext: string | null;
}
interface Round {
  readonly kind: Kind;
  readonly project: string;
  readonly store: string;
  readonly agentType: string;
  readonly parkedId: string | null;
  readonly agents: AgentRun[];
  readonly problems: string[];
}

/** Runs a built bin on one payload without blocking; resolves with its stdout. */
interface Fired {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where a round's sessions are: its project's file store, or the shared database (then `env` names it). */
interface Backend {
  readonly env: Record<string, string>;
  /** The store of a round's project (the file store at `store`, or the database). */
  open(store: string): SessionStore;
}

function fire(
  bin: string,
  payload: unknown,
  project: string,
  delayMs: number,
  extra: Record<string, string>,
): Promise<Fired> {
  return new Promise((done, fail) => {
    setTimeout(() => {
      const env = childEnv(project, extra);
      // The store comes from CLAUDE_PROJECT_DIR, as under Claude Code.
      delete env.AGENT_SESSION_DIR;
      const child = spawn(process.execPath, [bin], { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', fail);
      child.on('close', (status) => done({ status, stdout, stderr }));
      child.stdin.end(JSON.stringify(payload));
    }, delayMs);
  });
}

function hexAgentId(random: () => number): string {
  let id = 'a';
  for (let i = 0; i < 16; i++) id += Math.floor(random() * 16).toString(16);
  return id;
}

/** The valid sessions of a round (its agent type: on a shared database, the other rounds' are there too). */
async function allStates(backend: Backend, round: Pick<Round, 'store' | 'agentType'>): Promise<SessionState[]> {
  const sessions = new Sessions({ store: backend.open(round.store) });
  try {
    return (await sessions.list()).flatMap((entry) =>
      entry.kind === 'valid' && entry.state.agent_name === round.agentType ? [entry.state] : [],
    );
  } finally {
    await sessions.close();
  }
}

async function playRound(backend: Backend, index: number, random: () => number, base: string): Promise<Round> {
  const kind: Kind = (['fresh', 'parked', 'race'] as const)[index % 3]!;
  const project = join(base, `round-${index}`);
  mkdirSync(join(project, '.claude'), { recursive: true });
  const store = join(project, '.claude', 'session');
  const agentType = `architect-${index}`;
  let parkedId: string | null = null;
  if (kind !== 'fresh') {
    // A session of this type parked in approval by an earlier agent that stopped.
    const sessions = new Sessions({ store: backend.open(store) });
    try {
      const state = await sessions.create({
        agent_name: agentType,
        purpose: 'claude_code_subagent',
        metadata: { task_id: `T${index}` },
      });
      await sessions.update(state.agent_id, { phase: 'approval' });
      await sessions.linkClaude(state.agent_id, { agent_id: hexAgentId(random), agent_type: agentType, stopped: true });
      parkedId = state.agent_id;
    } finally {
      await sessions.close();
    }
  }
  const count = kind === 'race' ? 2 : 1;
  const agents: AgentRun[] = Array.from({ length: count }, () => ({
    claudeAgent: hexAgentId(random),
    startContext: null,
  }));
  const problems: string[] = [];
  const runs: Promise<void>[] = [];
  for (const agent of agents) {
    const post = fixture('post-tool-use-agent-async-launched-2.1.330.json') as {
      tool_input: object;
      tool_response: object;
    };
    const own = { cwd: project, agent_id: agent.claudeAgent, agent_type: agentType };
    const launched = {
      ...post,
      cwd: project,
      tool_input: { ...post.tool_input, subagent_type: agentType },
      tool_response: { ...post.tool_response, agentId: agent.claudeAgent },
    };
    // As `init` wires them: PostToolUse and SubagentStop to subagent-stop, SubagentStart to pre-delegate.
    const events = [
      { bin: BIN.subagentStop, payload: launched },
      { bin: BIN.preDelegate, payload: { ...fixture('subagent-start-2.1.330.json'), ...own }, start: true },
      { bin: BIN.subagentStop, payload: { ...fixture('subagent-stop-2.1.330-background.json'), ...own } },
    ];
    for (const event of events) {
      // Random small delays: every order happens, and most events overlap.
      runs.push(
        fire(event.bin, event.payload, project, Math.floor(random() * 25), backend.env).then((result) => {
          if (result.status !== 0 || result.stderr !== '')
            problems.push(`exit ${result.status}, stderr ${result.stderr.slice(0, 200)}`);
          if (event.start === true && result.stdout !== '') {
            const answer = JSON.parse(result.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
            agent.startContext = answer.hookSpecificOutput?.additionalContext ?? null;
          }
        }),
      );
    }
  }
  await Promise.all(runs);
  return { kind, project, store, agentType, parkedId, agents, problems };
}

/** What is wrong with the store a round left, as sentences (empty: the round is clean). */
async function check(backend: Backend, round: Round): Promise<string[]> {
  const problems = [...round.problems];
  const states = await allStates(backend, round);
  for (const state of states)
    if (state.phase === 'initializing') problems.push(`session ${state.agent_id} left initializing`);
  const resumedBy: string[] = [];
  for (const agent of round.agents) {
    const linked = states.filter((state) => state.claude?.agent_id === agent.claudeAgent);
    const named =
      agent.startContext === null
        ? null
        : (states.find((state) => agent.startContext!.includes(state.agent_id)) ?? null);
    if (named === null) {
      problems.push(`agent ${agent.claudeAgent}: SubagentStart named no session`);
      continue;
    }
    const handedOn = named.claude?.agent_id !== agent.claudeAgent;
    // One session per agent: the one its start named, still linked to it unless a later agent resumed it.
    if (linked.length > 1) problems.push(`agent ${agent.claudeAgent}: ${linked.length} sessions`);
    if (!handedOn && linked.length !== 1)
      problems.push(`agent ${agent.claudeAgent}: its session ${named.agent_id} is not linked to it`);
    if (handedOn && (linked.length !== 0 || named.agent_id !== round.parkedId)) {
      problems.push(`agent ${agent.claudeAgent}: named ${named.agent_id}, linked elsewhere`);
    }
    const resumed = named.agent_id === round.parkedId;
    if (resumed) resumedBy.push(agent.claudeAgent);
    const toldResume = agent.startContext!.includes(`resumes session ${named.agent_id}`);
    if (toldResume !== resumed) {
      problems.push(`agent ${agent.claudeAgent}: told resume ${toldResume}, relinked the parked session ${resumed}`);
    }
  }
  if (round.parkedId !== null) {
    const parked = states.find((state) => state.agent_id === round.parkedId);
    const resumes = parked?.history.filter((entry) => entry.event === 'resume').length ?? -1;
    // Every relink is a recorded resume, and every agent told it resumes is one of them: never two agents on one relink.
    if (resumes !== resumedBy.length)
      problems.push(`parked session resumed ${resumes} times, ${resumedBy.length} agents told so`);
    // The only agent (or one of two) always finds the parked session: it is parked until someone takes it.
    if (resumedBy.length === 0) problems.push('nobody resumed the parked session');
    if (parked?.phase !== 'approval') problems.push(`parked session ended in ${parked?.phase}`);
  }
  // No session beyond the parked one and one per agent that did not resume it.
  const expected = (round.parkedId === null ? 0 : 1) + round.agents.length - resumedBy.length;
  if (states.length !== expected) problems.push(`${states.length} sessions, expected ${expected}`);
  return problems;
}

/** Plays `rounds` rounds on `backend`, BATCH at once, and expects every one clean. */
async function race(backend: Backend, label: string, rounds: number): Promise<void> {
  const random = prng(seedOf('claude-race'));
  const failed: string[] = [];
  const base = makeTemp();
  try {
    for (let first = 0; first < rounds; first += BATCH) {
      const played = await Promise.all(
        Array.from({ length: Math.min(BATCH, rounds - first) }, (_, i) => playRound(backend, first + i, random, base)),
      );
      for (const round of played) {
        const problems = await check(backend, round);
        if (problems.length > 0)
          failed.push(`round ${round.project.split('-').at(-1)} (${round.kind}): ${problems.join('; ')}`);
        removeTemp(round.project);
      }
    }
  } finally {
    removeTemp(base);
  }
  process.stdout.write(`[stress] claude-race (${label}): ${failed.length} of ${rounds} rounds failed\n`);
  expect(failed).toEqual([]);
}

describe('file store', () => {
  it(`${ROUNDS} rounds of PostToolUse + SubagentStart + SubagentStop in random order and overlap: one session per agent`, async () => {
    await race({ env: {}, open: (store) => new FileStore(store) }, 'file store', ROUNDS);
  });
});

describeWithDatabase('PostgreSQL store, the hooks through its relay', (db) => {
  it(`${ROUNDS} rounds of PostToolUse + SubagentStart + SubagentStop in random order and overlap: one session per agent`, async () => {
    const env = { AGENT_SESSION_DATABASE_URL: db.url, AGENT_SESSION_DATABASE_SCHEMA: db.schema };
    await race({ env, open: () => db.store() }, 'PostgreSQL through the relay', ROUNDS);
    // The rounds went through the relay (the first hooks started it): it answered most of their calls.
    const status = JSON.parse(runBin(BIN.cli, ['relay', 'status', '--json'], { dir: tmpdir(), env }).stdout) as {
      running: boolean;
      status?: { requests: number };
    };
    expect(status.running).toBe(true);
    expect(status.status!.requests).toBeGreaterThan(ROUNDS * 3);
  });
});
