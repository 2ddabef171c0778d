// Guarantee: one session per Claude agent, whatever the order or overlap of its events. Claude Code fires
// PostToolUse(async_launched) and SubagentStart for a background agent at the same moment, in two processes, and
// its SubagentStop may overtake either. Each round fires the three events of a fresh agent id (`a` + 16 hex)
// through the built bins, wired as `init` wires them, in a random order with random small delays, all at once.
// Issue 22: an agent that dies of an API error gets StopFailure instead of SubagentStop; its rounds fire the failure
// twice among the start events, and sometimes a late SubagentStop after it: the session stays open, interrupted once.
// The plain rounds run on the file store, and on the PostgreSQL store with the hooks going through its relay (started
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
  /** The agents died of an API error (StopFailure, reported twice) instead of stopping; `lateStop`: then a SubagentStop. */
  readonly failing: boolean;
  readonly lateStop: boolean;
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

/** Where the rounds' sessions are: each project's file store, or the test database (then `env` names it). */
interface Backend {
  readonly env: Record<string, string>;
  /** The project the hooks name (the database is shared by every round's folder); undefined: each folder's own. */
  readonly project?: string;
  /** The store of a round's project (the file store at `store`, or the database). */
  open(store: string): SessionStore;
}
const FILES: Backend = { env: {}, open: (store) => new FileStore(store) };
/** The backend of the test running now. */
let backend: Backend = FILES;

function fire(bin: string, payload: unknown, project: string, delayMs: number): Promise<Fired> {
  return new Promise((done, fail) => {
    setTimeout(() => {
      const env = childEnv(project, backend.env);
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

/** The project a backend's sessions are made and listed in, as its hooks name it. */
function projectOf(backend: Backend): { project?: string } {
  return backend.project === undefined ? {} : { project: backend.project };
}

/** The valid sessions of a round: of its agent type (on the database, the other rounds' are there too). */
async function allStates(store: string, agentType: string): Promise<SessionState[]> {
  const sessions = new Sessions({ store: backend.open(store), ...projectOf(backend) });
  try {
    return (await sessions.list()).flatMap((entry) =>
      entry.kind === 'valid' && entry.state.agent_name === agentType ? [entry.state] : [],
    );
  } finally {
    await sessions.close();
  }
}

async function playRound(index: number, random: () => number, base: string, failing = false): Promise<Round> {
  const kind: Kind = (['fresh', 'parked', 'race'] as const)[index % 3]!;
  const lateStop = failing && index % 2 === 0;
  const project = join(base, `round-${failing ? 'failing-' : ''}${index}`);
  mkdirSync(join(project, '.claude'), { recursive: true });
  const store = join(project, '.claude', 'session');
  const agentType = `architect-${index}`;
  let parkedId: string | null = null;
  if (kind !== 'fresh') {
    // A session of this type parked in approval by an earlier agent that stopped.
    const sessions = new Sessions({ store: backend.open(store), ...projectOf(backend) });
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
    // As `init` wires them: PostToolUse, SubagentStop and StopFailure to subagent-stop, SubagentStart to pre-delegate.
    const failure = { ...fixture('stop-failure-rate-limit-2.1.330.json'), ...own };
    const events = [
      { bin: BIN.subagentStop, payload: launched },
      { bin: BIN.preDelegate, payload: { ...fixture('subagent-start-2.1.330.json'), ...own }, start: true },
      ...(failing
        ? [
            { bin: BIN.subagentStop, payload: failure },
            { bin: BIN.subagentStop, payload: failure },
          ]
        : [{ bin: BIN.subagentStop, payload: { ...fixture('subagent-stop-2.1.330-background.json'), ...own } }]),
    ];
    for (const event of events) {
      // Random small delays: every order happens, and most events overlap.
      runs.push(
        fire(event.bin, event.payload, project, Math.floor(random() * 25)).then((result) => {
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
  if (lateStop) {
    // A SubagentStop that comes after the failure (Claude Code sends none, but a later version may): kept open.
    const stops = agents.map((agent) =>
      fire(
        BIN.subagentStop,
        {
          ...fixture('subagent-stop-2.1.330-background.json'),
          cwd: project,
          agent_id: agent.claudeAgent,
          agent_type: agentType,
        },
        project,
        Math.floor(random() * 25),
      ),
    );
    for (const result of await Promise.all(stops))
      if (result.status !== 0 || result.stderr !== '')
        problems.push(`late stop: exit ${result.status}, stderr ${result.stderr.slice(0, 200)}`);
  }
  return { failing, lateStop, kind, project, store, agentType, parkedId, agents, problems };
}

/** What is wrong with the store a round left, as sentences (empty: the round is clean). */
async function check(round: Round): Promise<string[]> {
  const problems = [...round.problems];
  const states = await allStates(round.store, round.agentType);
  // A failed agent's session stays open whatever its phase (initializing included): interrupted, waiting, once per
  // agent that died in it, its link stopped.
  if (round.failing) problems.push(...interruptionProblems(states));
  for (const state of states)
    if (state.phase === 'initializing' && !round.failing) problems.push(`session ${state.agent_id} left initializing`);
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
    // Each agent after the first that took it carried on the interruption of the one before.
    if (round.failing && parked?.interruption?.carried_on !== resumes - 1)
      problems.push(`parked session carried on ${parked?.interruption?.carried_on} times, resumed ${resumes} times`);
  }
  if (round.failing) {
    const recorded = states.reduce((sum, state) => sum + (state.interruption?.count ?? 0), 0);
    if (recorded !== round.agents.length)
      problems.push(`${recorded} interruptions recorded for ${round.agents.length} failed agents`);
  }
  // No session beyond the parked one and one per agent that did not resume it.
  const expected = (round.parkedId === null ? 0 : 1) + round.agents.length - resumedBy.length;
  if (states.length !== expected) problems.push(`${states.length} sessions, expected ${expected}`);
  return problems;
}

/** A failing round's sessions: each open, interrupted and waiting, linked to the agent that died, counts agreeing. */
function interruptionProblems(states: readonly SessionState[]): string[] {
  const problems: string[] = [];
  for (const state of states) {
    const { interruption, claude } = state;
    if (['completed', 'failed', 'abandoned'].includes(state.phase))
      problems.push(`session ${state.agent_id} ended ${state.phase} although its agent died`);
    if (interruption?.waiting !== true) problems.push(`session ${state.agent_id} is not waiting after an interruption`);
    if (claude?.stopped_at === undefined) problems.push(`session ${state.agent_id} left running`);
    if (interruption !== undefined && interruption.agent_id !== claude?.agent_id)
      problems.push(
        `session ${state.agent_id}: interrupted by ${interruption.agent_id}, linked to ${claude?.agent_id}`,
      );
    const entries = state.history.filter((entry) => entry.event === 'interrupted').length;
    if (entries !== interruption?.count)
      problems.push(`session ${state.agent_id}: ${entries} interrupted entries, count ${interruption?.count}`);
    if (state.error_count !== 0) problems.push(`session ${state.agent_id}: an interruption counted as an error`);
  }
  return problems;
}

let base: string;
beforeAll(() => {
  base = makeTemp();
});
afterAll(() => removeTemp(base));

/** The plain rounds (PostToolUse, SubagentStart, SubagentStop) on the backend of the test running now. */
async function plainRounds(label: string): Promise<void> {
  const random = prng(seedOf('claude-race'));
  const failed: string[] = [];
  for (let first = 0; first < ROUNDS; first += BATCH) {
    const rounds = await Promise.all(
      Array.from({ length: Math.min(BATCH, ROUNDS - first) }, (_, i) => playRound(first + i, random, base)),
    );
    for (const round of rounds) {
      const problems = await check(round);
      if (problems.length > 0)
        failed.push(`round ${round.project.split('-').at(-1)} (${round.kind}): ${problems.join('; ')}`);
      removeTemp(round.project);
    }
  }
  process.stdout.write(`[stress] claude-race (${label}): ${failed.length} of ${ROUNDS} rounds failed\n`);
  expect(failed).toEqual([]);
}

it(`${ROUNDS} rounds of PostToolUse + SubagentStart + SubagentStop in random order and overlap: one session per agent`, async () => {
  await plainRounds('file store');
});

describeWithDatabase('PostgreSQL store, the hooks through its relay', (db) => {
  // One project for every round's folder (each agent type is a round's own): the hooks are told it, the test uses it.
  const env = {
    AGENT_SESSION_DATABASE_URL: db.url,
    AGENT_SESSION_DATABASE_SCHEMA: db.schema,
    AGENT_SESSION_PROJECT: 'claude-race',
  };
  beforeAll(() => (backend = { env, project: 'claude-race', open: () => db.store() }));
  afterAll(() => (backend = FILES));

  it(`${ROUNDS} rounds of PostToolUse + SubagentStart + SubagentStop in random order and overlap: one session per agent`, async () => {
    await plainRounds('PostgreSQL through the relay');
    // The rounds went through the relay (the first hooks started it): it answered most of their calls.
    const status = JSON.parse(runBin(BIN.cli, ['relay', 'status', '--json'], { dir: tmpdir(), env }).stdout) as {
      running: boolean;
      status?: { requests: number };
    };
    expect(status.running).toBe(true);
    expect(status.status!.requests).toBeGreaterThan(ROUNDS * 3);
  });
});

const FAILING_ROUNDS = 100;

it(`${FAILING_ROUNDS} rounds of PostToolUse + SubagentStart + StopFailure twice (then a late SubagentStop in half) in random order and overlap: one session per agent, open, interrupted once`, async () => {
  const random = prng(seedOf('claude-race-failure'));
  const failed: string[] = [];
  for (let first = 0; first < FAILING_ROUNDS; first += BATCH) {
    const rounds = await Promise.all(
      Array.from({ length: Math.min(BATCH, FAILING_ROUNDS - first) }, (_, i) =>
        playRound(first + i, random, base, true),
      ),
    );
    for (const round of rounds) {
      const problems = await check(round);
      if (problems.length > 0)
        failed.push(
          `round ${round.project.split('-').at(-1)} (${round.kind}${round.lateStop ? ', late stop' : ''}): ${problems.join('; ')}`,
        );
      removeTemp(round.project);
    }
  }
  process.stdout.write(`[stress] claude-race (failures): ${failed.length} of ${FAILING_ROUNDS} rounds failed\n`);
  expect(failed).toEqual([]);
});
