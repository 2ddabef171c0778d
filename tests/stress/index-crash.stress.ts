// Guarantee: the complete indexes (a Claude agent id or an agent name without a pointer has no session) stay true
// whatever step a writer is killed at. Each built bin runs with a preload that counts its file-system writes (every
// create, write, fsync, rename, link, unlink, mkdir) and SIGKILLs the process just before write number k; the scenario
// is replayed for every k from 1 to the number of writes a whole run makes, each time on a fresh copy of its store.
// After each kill the agent's next events run through the real bins, and then every lookup the hooks make (attachedTo,
// findByClaudeAgent, newestOf) must agree with a full listing of the store: never two sessions for one Claude agent,
// never a linked session missed, never a newer session of a type hidden.
import { DEFAULT_PROJECT } from '../../src/core/project';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isNewer } from '../../src/core/activity';
import type { SessionState } from '../../src/core/state';
import { Sessions } from '../../src/service/sessions';
import { FileStore } from '../../src/store/file-store';
import { generateSessions } from '../support/generate-sessions';
import { BIN, childEnv, makeTemp, removeTemp } from './helpers';

let base: string;
let preload: string;
beforeAll(() => {
  base = makeTemp();
  preload = join(base, 'crash-at.cjs');
  writeFileSync(preload, PRELOAD);
});
afterAll(() => removeTemp(base));

/**
 * The preload: counts file-system writes through node:fs (what the bins use) and SIGKILLs itself before write number
 * CRASH_AT (0: never); at exit (not killed) it writes how many there were to CRASH_COUNT.
 */
const PRELOAD = `
const fs = require('node:fs');
const killAt = Number(process.env.CRASH_AT || 0);
const writeFile = fs.writeFileSync;
let steps = 0;
const writes = (flags) => typeof flags === 'number'
  ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT)) !== 0
  : typeof flags === 'string' && /[wa+]/.test(flags);
function wrap(name, counts) {
  const real = fs[name];
  fs[name] = function (...args) {
    if (counts(...args) && ++steps === killAt) {
      process.kill(process.pid, 'SIGKILL');
      for (;;);
    }
    return real.apply(this, args);
  };
}
wrap('openSync', (path, flags) => writes(flags));
for (const name of ['writeSync', 'fsyncSync', 'renameSync', 'linkSync', 'unlinkSync', 'rmSync', 'mkdirSync',
  'mkdtempSync', 'rmdirSync', 'appendFileSync', 'writeFileSync']) wrap(name, () => true);
process.on('exit', () => { if (process.env.CRASH_COUNT) writeFile(process.env.CRASH_COUNT, String(steps)); });
`;

interface Project {
  readonly dir: string;
  readonly root: string;
}

/** Runs a hook bin on a Claude Code payload in `project`, killed before write `killAt` (0: never); its write count. */
function hook(project: Project, bin: string, payload: Record<string, unknown>, killAt = 0): number {
  const countFile = join(project.dir, 'writes');
  rmSync(countFile, { force: true });
  const env = childEnv(project.dir, { CRASH_AT: String(killAt), CRASH_COUNT: countFile });
  // The store comes from CLAUDE_PROJECT_DIR, as under Claude Code.
  delete env.AGENT_SESSION_DIR;
  const input = JSON.stringify({
    session_id: 's',
    transcript_path: join(project.dir, 't.jsonl'),
    cwd: project.dir,
    ...payload,
  });
  const result = spawnSync(process.execPath, ['--require', preload, bin], {
    input,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (killAt > 0 && result.signal === 'SIGKILL') return killAt;
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  return Number(readFileSync(countFile, 'utf8'));
}

/** Runs the CLI in `project`'s store, killed before write `killAt` (0: never); its write count. */
function cli(project: Project, args: readonly string[], killAt = 0): number {
  const countFile = join(project.dir, 'writes');
  rmSync(countFile, { force: true });
  const env = childEnv(project.dir, {
    CRASH_AT: String(killAt),
    CRASH_COUNT: countFile,
    AGENT_SESSION_DIR: project.root,
  });
  const result = spawnSync(process.execPath, ['--require', preload, BIN.cli, ...args], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (killAt > 0 && result.signal === 'SIGKILL') return killAt;
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  return Number(readFileSync(countFile, 'utf8'));
}

const start = (agentId: string, type: string) => ({
  hook_event_name: 'SubagentStart',
  agent_id: agentId,
  agent_type: type,
});
const stop = (agentId: string, type?: string) => ({
  hook_event_name: 'SubagentStop',
  agent_id: agentId,
  ...(type === undefined ? {} : { agent_type: type }),
  stop_hook_active: false,
  last_assistant_message: 'Plan ready.',
});

async function statesOf(root: string): Promise<SessionState[]> {
  return (await new FileStore(root).list()).flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
}

function newest(states: readonly SessionState[]): SessionState | null {
  return states.reduce<SessionState | null>(
    (best, state) => (best === null || isNewer(state, best) ? state : best),
    null,
  );
}

/**
 * What is wrong with the store's indexes, against a listing of the folders: for every Claude agent id and agent name
 * the store knows (and those given), attachedTo, findByClaudeAgent and newestOf must answer what the listing says.
 */
async function indexProblems(root: string, claudeIds: readonly string[], names: readonly string[]): Promise<string[]> {
  const states = await statesOf(root);
  const problems: string[] = [];
  const ids = new Set(claudeIds);
  for (const state of states) {
    if (state.claude !== undefined) ids.add(state.claude.agent_id);
    if (state.claude?.resumed_from?.agent_id !== undefined) ids.add(state.claude.resumed_from.agent_id);
  }
  const store = new FileStore(root);
  for (const id of ids) {
    const linked = newest(states.filter((s) => s.claude?.agent_id === id));
    const resumedFrom = newest(states.filter((s) => s.claude?.resumed_from?.agent_id === id));
    const attached = (await store.attachedTo(DEFAULT_PROJECT, id))?.agent_id ?? null;
    const found = (await store.findByClaudeAgent(DEFAULT_PROJECT, id))?.agent_id ?? null;
    if (states.filter((s) => s.claude?.agent_id === id).length > 1) problems.push(`Claude agent ${id}: two sessions`);
    if (found !== (linked?.agent_id ?? null))
      problems.push(`findByClaudeAgent(${id}) = ${found}, linked: ${linked?.agent_id}`);
    if (
      attached !== (linked ?? resumedFrom)?.agent_id &&
      !(attached === null && linked === null && resumedFrom === null)
    )
      problems.push(`attachedTo(${id}) = ${attached}, expected ${(linked ?? resumedFrom)?.agent_id ?? null}`);
  }
  for (const name of new Set([...names, ...states.map((s) => s.agent_name)])) {
    const expected = newest(states.filter((s) => s.agent_name === name))?.agent_id ?? null;
    const answered = (await store.newestOf(DEFAULT_PROJECT, name))?.agent_id ?? null;
    if (answered !== expected) problems.push(`newestOf(${name}) = ${answered}, expected ${expected}`);
  }
  return problems;
}

/** A project with a generated store and the scenario's own sessions, made once and copied for each kill. */
async function template(name: string, setup: (sessions: Sessions) => Promise<void>): Promise<Project> {
  const dir = join(base, `template-${name}`);
  const root = join(dir, '.claude', 'session');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  const store = new FileStore(root);
  for (const state of generateSessions({ count: 20, now: new Date() })) await store.create(state);
  await setup(new Sessions({ store }));
  return { dir, root };
}

function copyOf(project: Project, k: number): Project {
  const dir = join(base, `run-${k}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(project.dir, dir, { recursive: true });
  return { dir, root: join(dir, '.claude', 'session') };
}

/** A parked session of `type`, left by a Claude agent `previous` that stopped in approval. */
async function parked(sessions: Sessions, type: string, previous: string): Promise<SessionState> {
  const state = await sessions.create({ agent_name: type, purpose: 'claude_code_subagent' });
  await sessions.update(state.agent_id, { phase: 'approval' });
  await sessions.linkClaude(state.agent_id, { agent_id: previous, agent_type: type, stopped: true });
  return sessions.get(state.agent_id);
}

/**
 * Replays `crash` killed before each of its writes in turn (on a fresh copy of `project`), then `after` (the next
 * events, never killed) and `check`; returns the number of writes and the problems of every k.
 */
async function everyStep(
  project: Project,
  crash: (copy: Project, killAt: number) => number,
  after: (copy: Project) => void,
  check: (copy: Project) => Promise<string[]>,
): Promise<{ writes: number; failed: string[] }> {
  const writes = crash(copyOf(project, 0), 0);
  expect(writes).toBeGreaterThan(5);
  const failed: string[] = [];
  for (let k = 1; k <= writes; k++) {
    const copy = copyOf(project, k);
    crash(copy, k);
    after(copy);
    const problems = await check(copy);
    if (problems.length > 0) failed.push(`killed before write ${k}: ${problems.join('; ')}`);
    rmSync(copy.dir, { recursive: true, force: true });
  }
  return { writes, failed };
}

it('SubagentStart of a new agent relinking a parked session, killed at every write: its stop finds that session, the earlier agent stays superseded', async () => {
  let parkedId = '';
  const project = await template('relink', async (sessions) => {
    parkedId = (await parked(sessions, 'planner', 'a00000000000000a0')).agent_id;
  });
  const { writes, failed } = await everyStep(
    project,
    (copy, k) => hook(copy, BIN.preDelegate, start('a00000000000000b1', 'planner'), k),
    (copy) => {
      hook(copy, BIN.subagentStop, stop('a00000000000000b1', 'planner'));
      // A late event of the agent that parked it: its session was handed on, nothing is made for it.
      hook(copy, BIN.subagentStop, stop('a00000000000000a0', 'planner'));
    },
    async (copy) => {
      const states = await statesOf(copy.root);
      const problems = await indexProblems(copy.root, ['a00000000000000a0', 'a00000000000000b1'], ['planner']);
      const mine = states.filter((s) => s.claude?.agent_id === 'a00000000000000b1');
      if (mine.length !== 1 || mine[0]!.agent_id !== parkedId)
        problems.push(`new agent on ${mine.map((s) => s.agent_id)}`);
      const resumes = states.find((s) => s.agent_id === parkedId)?.history.filter((h) => h.event === 'resume').length;
      if (resumes !== 1) problems.push(`parked session resumed ${resumes} times`);
      if (states.length !== 21) problems.push(`${states.length} sessions, expected 21`);
      return problems;
    },
  );
  process.stdout.write(
    `[stress] index crash, relink: killed before each of ${writes} writes, ${failed.length} wrong\n`,
  );
  expect(failed).toEqual([]);
});

it('SubagentStart creating a session (known type none parked, brand-new type), killed at every write: one session per agent', async () => {
  const project = await template('create', async (sessions) => {
    const done = await sessions.create({ agent_name: 'finished', purpose: 'p' });
    await sessions.finalize(done.agent_id, 'completed');
  });
  for (const type of ['finished', 'brand-new']) {
    const { writes, failed } = await everyStep(
      project,
      (copy, k) => hook(copy, BIN.preDelegate, start('a00000000000000c1', type), k),
      (copy) => hook(copy, BIN.subagentStop, stop('a00000000000000c1', type)),
      async (copy) => {
        const states = await statesOf(copy.root);
        const problems = await indexProblems(copy.root, ['a00000000000000c1'], [type]);
        const mine = states.filter((s) => s.claude?.agent_id === 'a00000000000000c1');
        if (mine.length !== 1 || mine[0]!.agent_name !== type) problems.push(`${mine.length} sessions for the agent`);
        if (states.length !== 22) problems.push(`${states.length} sessions, expected 22`);
        return problems;
      },
    );
    process.stdout.write(
      `[stress] index crash, create (${type}): killed before each of ${writes} writes, ${failed.length} wrong\n`,
    );
    expect(failed).toEqual([]);
  }
});

it('a store an older version made (no markers, lost pointers), its first event killed at every write: nothing linked is missed', async () => {
  let linkedId = '';
  const project = await template('old-store', async (sessions) => {
    await parked(sessions, 'planner', 'a00000000000000a0');
    const linked = await sessions.attachClaudeAgent({ agent_id: 'a00000000000000d0', agent_type: 'reviewer' });
    linkedId = linked!.state.agent_id;
  });
  // As an older version leaves a store: no markers; pointers lost or never written.
  rmSync(join(project.root, '.claude-agents'), { recursive: true });
  rmSync(join(project.root, '.agents', 'complete.json'));
  rmSync(join(project.root, '.agents', `${Buffer.from('reviewer').toString('hex')}.json`));
  const { writes, failed } = await everyStep(
    project,
    (copy, k) => hook(copy, BIN.preDelegate, start('a00000000000000e1', 'planner'), k),
    (copy) => {
      hook(copy, BIN.subagentStop, stop('a00000000000000e1', 'planner'));
      // The running agent whose pointer was lost stops: its session, never a second one.
      hook(copy, BIN.subagentStop, stop('a00000000000000d0', 'reviewer'));
    },
    async (copy) => {
      const states = await statesOf(copy.root);
      const problems = await indexProblems(
        copy.root,
        ['a00000000000000e1', 'a00000000000000d0'],
        ['planner', 'reviewer'],
      );
      const reviewer = states.filter((s) => s.claude?.agent_id === 'a00000000000000d0');
      if (reviewer.length !== 1 || reviewer[0]!.agent_id !== linkedId)
        problems.push('the linked agent got another session');
      if (states.length !== 22) problems.push(`${states.length} sessions, expected 22`);
      return problems;
    },
  );
  process.stdout.write(
    `[stress] index crash, older store: killed before each of ${writes} writes, ${failed.length} wrong\n`,
  );
  expect(failed).toEqual([]);
});

it('CLI writes (update of a type newest session, create of a new type), killed at every write: newestOf never hides a session', async () => {
  let older = '';
  let newer = '';
  const project = await template('cli', async (sessions) => {
    older = (await sessions.create({ agent_name: 'writer', purpose: 'p' })).agent_id;
    newer = (await sessions.create({ agent_name: 'writer', purpose: 'p' })).agent_id;
  });
  const cases: [string, (copy: Project, k: number) => number][] = [
    ['update of the older session', (copy, k) => cli(copy, ['update', older, '--phase', 'planning'], k)],
    ['update of the newest session', (copy, k) => cli(copy, ['update', newer, '--phase', 'planning'], k)],
    ['create of a new agent name', (copy, k) => cli(copy, ['create', '--agent', 'novel', '--purpose', 'p'], k)],
  ];
  for (const [label, crash] of cases) {
    const { writes, failed } = await everyStep(
      project,
      crash,
      () => undefined,
      (copy) => indexProblems(copy.root, [], ['writer', 'novel']),
    );
    process.stdout.write(
      `[stress] index crash, CLI ${label}: killed before each of ${writes} writes, ${failed.length} wrong\n`,
    );
    expect(failed).toEqual([]);
  }
});
