// Guarantees (issue 40 item 10): a decision made on the page is recorded whole or not at all, and a grant runs at most
// once, whatever moment the process is killed (SIGKILL) at. The built bins run with a preload that counts their
// file-system writes (every create, write, fsync, rename, link, unlink, mkdir, as index-crash.stress.ts) and kills the
// process just before write number k: for `serve`, counted from the moment its approve request arrives; for the
// PermissionRequest hook spending a grant, from its start. Every k from 1 to the number of writes a whole run makes is
// replayed on the same starting store. Then `serve` is killed from outside at random moments of the request, and hooks
// spending one grant concurrently are killed at random moments. Last, a decider killed holding the lock and left
// unreaped (a zombie) must not hold up the next decision.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parkForPermission } from '../../src/core/permission';
import { withProject } from '../../src/core/project';
import { applyChange, newSession } from '../../src/core/session';
import { parseState, type SessionState } from '../../src/core/state';
import { decisionSubject } from '../../src/core/views/live';
import { FileStore } from '../../src/store/file-store';
import type { PgStore } from '../../src/store/postgres/pg-store';
import { runOutsideAgent } from '../support/outside-agent';
import { describeWithDatabase } from '../support/test-database';
import { raw, startServe, userEnv } from '../support/serve';
import { BIN, bundleWorker, makeTemp, prng, removeTemp, seedOf } from './helpers';
import { askPayload, behaviour, grantProject, parkedGrantSession, resumeBy, type GrantProject } from './grant-flow';

/**
 * The preload: counts file-system writes through node:fs and SIGKILLs its process before write number CRASH_AT (0:
 * never). With CRASH_ARM=approve it counts only from the first POST /api/approve the server receives. After each
 * write it counted, it writes the count so far to CRASH_COUNT (a server is stopped with SIGKILL too: no exit handler).
 */
const PRELOAD = `
const fs = require('node:fs');
const http = require('node:http');
const killAt = Number(process.env.CRASH_AT || 0);
const writeFile = fs.writeFileSync;
let armed = process.env.CRASH_ARM !== 'approve';
let steps = 0;
const writes = (flags) => typeof flags === 'number'
  ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT)) !== 0
  : typeof flags === 'string' && /[wa+]/.test(flags);
function wrap(name, counts) {
  const real = fs[name];
  fs[name] = function (...args) {
    if (!armed || !counts(...args)) return real.apply(this, args);
    if (++steps === killAt) {
      process.kill(process.pid, 'SIGKILL');
      for (;;);
    }
    const result = real.apply(this, args);
    if (process.env.CRASH_COUNT) writeFile(process.env.CRASH_COUNT, String(steps));
    return result;
  };
}
wrap('openSync', (path, flags) => writes(flags));
for (const name of ['writeSync', 'fsyncSync', 'renameSync', 'linkSync', 'unlinkSync', 'rmSync', 'mkdirSync',
  'mkdtempSync', 'rmdirSync', 'appendFileSync', 'writeFileSync', 'copyFileSync', 'symlinkSync']) wrap(name, () => true);
const createServer = http.createServer;
http.createServer = function (...args) {
  return createServer.apply(this, args.map((arg) => typeof arg !== 'function' ? arg : function (request, response) {
    if (request.method === 'POST' && request.url === '/api/approve') armed = true;
    return arg.call(this, request, response);
  }));
};
`;

let base: string;
let preload: string;
beforeAll(() => {
  base = makeTemp();
  preload = join(base, 'crash-at.cjs');
  writeFileSync(preload, PRELOAD);
});
afterAll(() => removeTemp(base));

/** Whether process `pid` still runs: there, and not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * No code cache for a bin run with the preload: its loader would write one now and then, and start a process that makes
 * it (which would inherit the preload): the writes counted would not be the same from run to run.
 */
const NO_CODE_CACHE = { AGENT_SESSION_CODE_CACHE: '0' };

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
const PROJECT = 'github.com/acme/faults';
const BATCH = 6;
const RANDOM_KILLS = 8;
const CALL = { command: 'touch GRANTED-FILE', description: 'scripted command' };

/**
 * The environment of the user's commands and serve on `dir`'s store. Its own data folder: each run makes the decision
 * key (the first decision's writes), so every run makes the same writes as the counted one, and a kill while the key
 * is made is one of the kills.
 */
const envOf = (dir: string) => ({
  AGENT_SESSION_DIR: join(dir, 'store'),
  AGENT_SESSION_PROJECT: PROJECT,
  AGENT_SESSION_LOG_DIR: join(dir, 'logs'),
  HOME: join(dir, 'home'),
  XDG_DATA_HOME: join(dir, 'data'),
});

/** Whether `out` (the first line a pid) names a process still in /proc (a zombie is). */
const exists = (out: string) => existsSync(`/proc/${Number(out.split('\n')[0])}`);

/** A session parked in approval on a plan, or on a sub-agent's permission request, written straight to the store. */
async function parkedSession(store: string, kind: 'plan' | 'permission'): Promise<string> {
  const id = `agent-20261207-050000-${kind === 'plan' ? '0000a1a1' : '0000b2b2'}`;
  const at = new Date(Date.now() - 60_000);
  let state = withProject(newSession({ agent_id: id, agent_name: 'builder', purpose: 'stress' }, at), PROJECT);
  state =
    kind === 'plan'
      ? applyChange(
          applyChange(state, { phase: 'planning', metadata: { plan: `apply ${'x'.repeat(200_000)}` } }, at),
          { phase: 'approval' },
          at,
        )
      : parkForPermission(
          applyChange(state, { phase: 'executing' }, at),
          { tool: 'Bash', input: CALL, claudeAgentId: 'a0000000000000001' },
          at,
        );
  await new FileStore(store).create(state);
  return id;
}

describe('a page decision killed at each of its writes, then at random moments', () => {
  /** Starts serve on `store` with the preload (killing before approve write `killAt`), posts the approval. */
  async function approveOnPage(
    dir: string,
    id: string,
    subject: string,
    killAt: number,
    afterMs?: number,
  ): Promise<{ status: number | 'killed'; writes: number; ms: number }> {
    const count = join(dir, 'writes');
    rmSync(count, { force: true });
    const env = userEnv({
      ...envOf(dir),
      ...NO_CODE_CACHE,
      CRASH_AT: String(killAt),
      CRASH_ARM: 'approve',
      CRASH_COUNT: count,
    });
    const served = await startServe(dir, [], env, ['--require', preload]);
    // From outside, at a random moment after the request is sent (any instruction, not only before a write).
    const timer = afterMs === undefined ? undefined : setTimeout(() => process.kill(served.pid, 'SIGKILL'), afterMs);
    const sent = Date.now();
    try {
      const answer = await raw(served.port, {
        method: 'POST',
        path: '/api/approve',
        headers: {
          authorization: `Bearer ${served.token}`,
          origin: `http://127.0.0.1:${served.port}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ id, subject }),
      }).catch(() => null);
      const ms = Date.now() - sent;
      if (answer === null) return { status: 'killed', writes: killAt, ms };
      return { status: answer.status, writes: existsSync(count) ? Number(readFileSync(count, 'utf8')) : -1, ms };
    } finally {
      clearTimeout(timer);
      // Killed at once (SIGTERM makes it close its store and connections, which takes a second or two here), and
      // waited for until it is gone or only a zombie (it runs no more; its parent, init, reaps it when it will).
      if (running(served.pid)) process.kill(served.pid, 'SIGKILL');
      const until = Date.now() + 10_000;
      while (running(served.pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const decided = (state: SessionState): boolean => (state.decisions ?? []).length > 0;

  /**
   * One kill: a copy of the pristine store in its own folder, the page's approval killed before write `killAt`, then
   * the state judged. Returns what was on disk (`whole` or `none`) and the problems found.
   */
  async function killedApproval(
    kind: 'plan' | 'permission',
    pristine: string,
    id: string,
    kill: { readonly atWrite: number } | { readonly afterMs: number; readonly round: number },
  ): Promise<{ outcome: 'whole' | 'none'; problems: string[] }> {
    const name = 'atWrite' in kill ? `kill at write ${kill.atWrite}` : `kill ${kill.afterMs} ms after the request`;
    const dir = join(base, kind, 'atWrite' in kill ? `write-${kill.atWrite}` : `random-${kill.round}`);
    mkdirSync(join(dir, 'home'), { recursive: true });
    const store = join(dir, 'store');
    cpSync(pristine, store, { recursive: true });
    const before = readFileSync(join(store, id, 'state.json'), 'utf8');
    const problems: string[] = [];
    const subject = digest(decisionSubject(parseState(JSON.parse(before))));
    const run =
      'atWrite' in kill
        ? await approveOnPage(dir, id, subject, kill.atWrite)
        : await approveOnPage(dir, id, subject, 0, kill.afterMs);
    // A random kill may come after the answer: the decision is then whole, as answered.
    if (run.status !== 'killed' && !('afterMs' in kill && run.status === 200))
      problems.push(`answered ${run.status} instead of being killed`);
    const text = readFileSync(join(store, id, 'state.json'), 'utf8');
    const state = parseState(JSON.parse(text));
    if (decided(state)) {
      // Whole: the decision, the move to executing and (for a request) the grant, all in the one write.
      const decision = state.decisions!;
      const history = state.history.at(-1)!;
      if (state.phase !== 'executing') problems.push(`decided but in ${state.phase}`);
      if (decision.length !== 1 || decision[0]!.decision !== 'approved') problems.push('not one approval recorded');
      if (history.from_phase !== 'approval' || history.to_phase !== 'executing')
        problems.push('no move to executing in the history');
      const request = state.permission_requests?.[0];
      if (kind === 'permission' && (request?.status !== 'approved' || request.decided_at !== decision[0]!.at))
        problems.push(`the request is ${request?.status}, not granted by the decision`);
    } else {
      // None of it: the state byte for byte as before, and the next decision succeeds (the dead server's lock
      // recovered).
      if (text !== before) problems.push('undecided, but the state changed');
      const next = runOutsideAgent(BIN.cli, ['approve', id], { cwd: dir, env: envOf(dir) });
      if (next.status !== 0) problems.push(`the next approve: exit ${next.status}: ${next.stderr.trim()}`);
    }
    return {
      outcome: decided(state) ? 'whole' : 'none',
      problems: problems.map((p) => `${name}: ${p}`),
    };
  }

  it.each(['plan', 'permission'] as const)(
    'approving a %s: state.json parses and holds the whole decision or none of it; the next approve succeeds',
    async (kind) => {
      const dir = join(base, kind, 'whole');
      mkdirSync(join(dir, 'home'), { recursive: true });
      const store = join(dir, 'store');
      const id = await parkedSession(store, kind);
      const pristine = join(base, kind, 'pristine');
      cpSync(store, pristine, { recursive: true });
      const before = readFileSync(join(store, id, 'state.json'), 'utf8');

      // A whole run: how many writes an approval from the page makes.
      const whole = await approveOnPage(dir, id, digest(decisionSubject(parseState(JSON.parse(before)))), 0);
      expect(whole.status).toBe(200);
      expect(whole.writes).toBeGreaterThan(2);
      expect(decided(parseState(JSON.parse(readFileSync(join(store, id, 'state.json'), 'utf8'))))).toBe(true);

      const outcomes: string[] = [];
      const problems: string[] = [];
      // A few at once: most of a round is waiting (a server starting, a killed one being reaped).
      for (let first = 1; first <= whole.writes; first += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, whole.writes - first + 1) }, (_, i) => first + i);
        for (const result of await Promise.all(batch.map((k) => killedApproval(kind, pristine, id, { atWrite: k })))) {
          outcomes.push(result.outcome);
          problems.push(...result.problems);
        }
      }
      const count = (outcome: string) => outcomes.filter((o) => o === outcome).length;
      process.stdout.write(
        `[stress] page approve of a ${kind} killed at each of its ${whole.writes} writes: ${count('whole')} recorded whole, ` +
          `${count('none')} not at all (then approved), ${problems.length} problems\n`,
      );
      // Then from outside, at random moments up to half again as long as the whole request took.
      const random = prng(seedOf(`page approve of a ${kind}`));
      const randomOutcomes: string[] = [];
      for (let first = 0; first < RANDOM_KILLS; first += BATCH) {
        const kills = Array.from({ length: Math.min(BATCH, RANDOM_KILLS - first) }, (_, i) => ({
          afterMs: Math.floor(random() * whole.ms * 1.5),
          round: first + i,
        }));
        for (const result of await Promise.all(kills.map((kill) => killedApproval(kind, pristine, id, kill)))) {
          randomOutcomes.push(result.outcome);
          problems.push(...result.problems);
        }
      }
      process.stdout.write(
        `[stress] page approve of a ${kind} (${whole.ms} ms) killed at ${RANDOM_KILLS} random moments: ` +
          `${randomOutcomes.filter((o) => o === 'whole').length} recorded whole, ` +
          `${randomOutcomes.filter((o) => o === 'none').length} not at all; ${problems.length} problems in all\n`,
      );
      expect(problems).toEqual([]);
      // The kills fell on both sides of the write that decides.
      expect(count('whole')).toBeGreaterThan(0);
      expect(count('none')).toBeGreaterThan(0);
    },
  );
});

describe('a decider killed holding the lock, not yet reaped', () => {
  it('a zombie holds no lock: the next approve succeeds while the dead one waits to be reaped', async () => {
    const dir = join(base, 'zombie');
    mkdirSync(join(dir, 'home'), { recursive: true });
    const store = join(dir, 'store');
    const id = await parkedSession(store, 'plan');
    const worker = bundleWorker(dir);
    // sh starts the worker in the background, then becomes `sleep`, which never reaps it: the killed worker stays a
    // zombie for 12 s, longer than the 5 s a command waits for a lock (a parent slow to reap its children, as this
    // machine's init is by a second or two).
    const parent = spawn(
      'sh',
      ['-c', 'node "$1" die-holding-lock "$2" "$3" & echo $!; exec sleep 12', 'sh', worker, store, id],
      { cwd: dir, env: userEnv(envOf(dir)), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let out = '';
      parent.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const until = Date.now() + 20_000;
      const zombie = () => /^\d+\n/.test(out) && !running(Number(out.split('\n')[0])) && exists(out);
      while (!zombie() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(out).toMatch(/^\d+\nholding\n$/);
      const pid = Number(out.split('\n')[0]);
      expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /);
      expect(existsSync(join(store, id, 'state.json.lock'))).toBe(true);

      const next = runOutsideAgent(BIN.cli, ['approve', id], { cwd: dir, env: envOf(dir) });
      // Still a zombie all along: its lock was judged, not waited out.
      expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /);
      expect({ status: next.status, stderr: next.stderr }).toEqual({ status: 0, stderr: '' });
      expect(parseState(JSON.parse(readFileSync(join(store, id, 'state.json'), 'utf8'))).phase).toBe('executing');
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

describe('a grant spent by hooks killed at any moment', () => {
  const FIRST = 'a2000000000000001';
  const NEXT = 'a2000000000000002';
  let p: GrantProject;
  let pristine: string;
  let id: string;
  /** The store as approved, and no log yet (a hook's first line creates it: those writes are counted too). */
  const restore = () => {
    rmSync(p.store, { recursive: true, force: true });
    rmSync(join(base, 'grant', 'logs'), { recursive: true, force: true });
    cpSync(pristine, p.store, { recursive: true });
  };
  /** The grant's records in the store: how many were spent, and whether the state parses and validates. */
  const spentCount = () => p.state(id).permission_requests!.filter((request) => request.status === 'spent').length;

  beforeAll(() => {
    p = grantProject(join(base, 'grant'), [FIRST, NEXT]);
    id = parkedGrantSession(p, FIRST, CALL);
    const approved = p.user(['approve', id]);
    if (approved.status !== 0) throw new Error(`approve: ${approved.stderr}`);
    resumeBy(p, NEXT);
    pristine = join(base, 'grant', 'pristine');
    cpSync(p.store, pristine, { recursive: true });
  });

  /** The agent asks the granted call again, through the hook bin with the preload (killed before write `killAt`). */
  function spend(killAt: number, count = ''): { answer: string; killed: boolean } {
    const result = spawnSync(process.execPath, ['--require', preload, BIN.preDelegate], {
      cwd: p.dir,
      env: p.env({ CRASH_AT: String(killAt), CRASH_COUNT: count, ...NO_CODE_CACHE }),
      input: JSON.stringify({ ...p.base, ...askPayload(NEXT, CALL) }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (result.signal !== 'SIGKILL' && result.status !== 0) throw new Error(`hook failed: ${result.stderr}`);
    return { answer: behaviour(result.stdout), killed: result.signal === 'SIGKILL' };
  }

  it('killed at each of its writes: the grant runs at most once, and the next ask sees it spent or spends it', () => {
    const count = join(base, 'grant', 'writes');
    restore();
    expect(spend(0, count)).toEqual({ answer: 'allow', killed: false });
    const writes = Number(readFileSync(count, 'utf8'));
    expect(spentCount()).toBe(1);
    expect(writes).toBeGreaterThan(2);
    const problems: string[] = [];
    let spentByKilled = 0;
    let allowedByKilled = 0;
    for (let killAt = 1; killAt <= writes; killAt++) {
      restore();
      const killed = spend(killAt);
      if (!killed.killed) problems.push(`write ${killAt}: not killed`);
      const spentThen = spentCount();
      if (spentThen > 0) spentByKilled++;
      if (killed.answer === 'allow') allowedByKilled++;
      // An allow is printed only once the spend is on disk.
      if (killed.answer === 'allow' && spentThen !== 1) problems.push(`write ${killAt}: allowed, ${spentThen} spent`);
      const next = spend(0);
      const allows = [killed.answer, next.answer].filter((answer) => answer === 'allow').length;
      if (allows > 1) problems.push(`write ${killAt}: the call was allowed twice`);
      // Not spent by the killed hook: the grant is still there for the next ask.
      if (spentThen === 0 && next.answer !== 'allow') problems.push(`write ${killAt}: the grant was lost`);
      if (spentCount() !== 1) problems.push(`write ${killAt}: ${spentCount()} spent records`);
    }
    process.stdout.write(
      `[stress] grant spend killed at each of its ${writes} writes: spent by the killed hook ${spentByKilled} times ` +
        `(its allow printed ${allowedByKilled} times), by the next ask the other ${writes - spentByKilled}; ${problems.length} problems\n`,
    );
    expect(problems).toEqual([]);
    expect(spentByKilled).toBeGreaterThan(0);
    expect(spentByKilled).toBeLessThan(writes);
  });

  it('several hooks racing for it, each killed at a random moment: it runs at most once and is spent exactly once', () =>
    racingKills(
      'file store',
      p,
      NEXT,
      async () => restore(),
      async () => spentCount(),
    ));
});

describeWithDatabase('a grant on the PostgreSQL store spent by hooks killed at any moment', (db) => {
  const FIRST = 'a4000000000000001';
  const NEXT = 'a4000000000000002';
  let p: GrantProject;
  let id: string;
  let pristine: SessionState;
  let store: PgStore;

  beforeAll(async () => {
    // The hooks reach the database through the relay, as they do by default; commands with their own connection.
    p = grantProject(join(base, 'grant-pg'), [FIRST, NEXT], {
      AGENT_SESSION_DATABASE_URL: db.url,
      AGENT_SESSION_DATABASE_SCHEMA: db.schema,
    });
    id = parkedGrantSession(p, FIRST, CALL);
    const approved = p.user(['approve', id]);
    if (approved.status !== 0) throw new Error(`approve: ${approved.stderr}`);
    resumeBy(p, NEXT);
    store = db.store();
    pristine = (await store.read(id))!;
  });

  it('several hooks racing for it, each killed at a random moment: it runs at most once and is spent exactly once', () =>
    racingKills(
      'PostgreSQL store',
      p,
      NEXT,
      async () => {
        await store.update(id, () => pristine);
      },
      async () => ((await store.read(id))!.permission_requests ?? []).filter((r) => r.status === 'spent').length,
    ));
});

/** The agent `agent` asks the granted call again through the hook bin, killed `delayMs` after it starts (if still running). */
function spendKilledAfter(p: GrantProject, agent: string, delayMs: number): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN.preDelegate], { cwd: p.dir, env: p.env(), stdio: 'pipe' });
    child.stdin.on('error', () => undefined).end(JSON.stringify({ ...p.base, ...askPayload(agent, CALL) }));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('error', fail);
    child.on('close', () => {
      clearTimeout(timer);
      // Killed, it printed a whole answer or nothing (a pipe's writes are whole up to its buffer).
      done(behaviour(out));
    });
  });
}

/**
 * Rounds of 4 hooks asking the granted call at once, each killed at a random moment, then one more ask, alone: in
 * every round the call is allowed once at most, and the grant ends spent exactly once (by a killed hook or the last).
 */
async function racingKills(
  label: string,
  p: GrantProject,
  agent: string,
  restore: () => Promise<void>,
  spentCount: () => Promise<number>,
): Promise<void> {
  const random = prng(seedOf(`grant spend kills (${label})`));
  const rounds = 8;
  const problems: string[] = [];
  let allowedRounds = 0;
  for (let round = 0; round < rounds; round++) {
    await restore();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => spendKilledAfter(p, agent, Math.floor(random() * 400))),
    );
    const allowed = answers.filter((answer) => answer === 'allow').length;
    const last = await spendKilledAfter(p, agent, 30_000);
    if (allowed > 0) allowedRounds++;
    if (allowed + (last === 'allow' ? 1 : 0) > 1) problems.push(`round ${round}: allowed ${allowed} + ${last}`);
    const spent = await spentCount();
    if (spent !== 1) problems.push(`round ${round}: ${spent} spent records`);
  }
  process.stdout.write(
    `[stress] grant spend on the ${label} raced by 4 hooks killed at random moments: in ${allowedRounds} of ${rounds} ` +
      `rounds one of them ran it, in the others the next ask; ${problems.length} problems\n`,
  );
  expect(problems).toEqual([]);
}
