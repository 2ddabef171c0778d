// Guarantee: atomic writes and lock recovery. Writers are killed with SIGKILL at random moments; state.json
// must always parse and validate, the next command must succeed, and cleanup must remove the leftovers.
//
// Sweeping sooner: cleanup removes leftovers older than 60 s. Rather than adding a production knob, the test
// ages the leftovers itself (utimes, two minutes back) and then runs the real `cleanup`; it first checks that
// young leftovers (which could belong to a live writer) are kept.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { parseState, type SessionState } from '../../src/core/state';
import { FileStore } from '../../src/store/file-store';
import {
  BIN,
  bundleWorker,
  childEnv,
  killAfter as killIn,
  makeTemp,
  prng,
  removeTemp,
  runBin,
  seedOf,
} from './helpers';

let dir: string;
let worker: string;

beforeAll(() => {
  dir = makeTemp();
  worker = bundleWorker(dir);
});
afterAll(() => removeTemp(dir));

/** killAfter (helpers.ts) in this file's folder. */
const killAfter = (args: readonly string[], delayMs: number, afterFirstWrite = false) =>
  killIn(args, delayMs, { dir, afterFirstWrite });

/** The session folders in `store`; none while no writer has got as far as creating the store itself. */
function sessionFolders(store: string): string[] {
  try {
    return readdirSync(store).filter((entry) => !entry.startsWith('.'));
  } catch (error) {
    // A kill that lands before the first create leaves no store at all: nothing is visible, which is whole.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function readValid(store: string, id: string): SessionState {
  return parseState(JSON.parse(readFileSync(join(store, id, 'state.json'), 'utf8')));
}

/** Moves the mtime of every leftover (temp, stale lock, staging or removing folder) two minutes back. */
function ageLeftovers(store: string): number {
  return dateLeftovers(store, new Date(Date.now() - 120_000));
}

/**
 * Dates every leftover now: young by construction, whatever the kills took (on a loaded machine the first ones can be
 * older than the sweep's 60 s by the time the run ends, and would rightly be removed).
 */
function freshenLeftovers(store: string): number {
  return dateLeftovers(store, new Date());
}

function dateLeftovers(store: string, past: Date): number {
  let aged = 0;
  const isLeftover = (name: string): boolean =>
    name.endsWith('.tmp') ||
    name.includes('.lock.stale.') ||
    name.startsWith('.creating-') ||
    name.startsWith('.removing-');
  for (const name of readdirSync(store)) {
    if (isLeftover(name)) {
      utimesSync(join(store, name), past, past);
      aged++;
      continue;
    }
    // Our own files in the root (`.gitignore`, the listing cache) hold no leftovers.
    if (!statSync(join(store, name)).isDirectory()) continue;
    // `.agents` (the per-agent pointers) holds the same kinds of leftovers as a session folder.
    for (const inner of readdirSync(join(store, name))) {
      if (isLeftover(inner)) {
        utimesSync(join(store, name, inner), past, past);
        aged++;
      }
    }
  }
  return aged;
}

function leftovers(store: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(store)) {
    if (name === '.agents') {
      // Pointer files and their (possibly dead) locks are the index itself, not leftovers.
      for (const inner of readdirSync(join(store, name)))
        if (!/\.json(\.lock)?$/.test(inner)) found.push(`${name}/${inner}`);
    } else if (name === '.gitignore' || name === '.listing-cache.json') {
      // Our own files in the root: the store kept out of git, the listing's summary. Not leftovers.
    } else if (name.startsWith('.')) found.push(name);
    else
      for (const inner of readdirSync(join(store, name)))
        if (inner !== 'state.json' && inner !== 'state.json.lock') found.push(`${name}/${inner}`);
  }
  return found;
}

describe('crashes', () => {
  it('SIGKILL of an updating writer at 200 random moments: state.json always valid, next command succeeds, cleanup sweeps', async () => {
    const random = prng(seedOf('SIGKILL updates'));
    const store = join(dir, 'updates');
    expect(
      runBin(BIN.cli, ['create', '--agent', 'crash', '--purpose', 'p', '--id', 'victim', '--dir', store], { dir })
        .status,
    ).toBe(0);
    const fileStore = new FileStore(store);
    const runs = 200;
    let afterWrites = 0;
    let locksLeft = 0;
    let withLeftovers = 0;
    let cliRecoveries = 0;
    let seen = new Set(readdirSync(join(store, 'victim')));
    for (let run = 0; run < runs; run++) {
      const { lines } = await killAfter(
        [worker, 'crash-updates', store, 'victim'],
        run % 2 === 0 ? 20 + Math.floor(random() * 130) : Math.floor(random() * 40),
        run % 2 === 1,
      );
      if (lines > 0) afterWrites++;
      const names = readdirSync(join(store, 'victim'));
      if (names.includes('state.json.lock')) locksLeft++;
      if (names.some((name) => !seen.has(name) && name !== 'state.json.lock')) withLeftovers++;
      // The file is whole and valid after every kill.
      expect(readValid(store, 'victim').agent_id).toBe('victim');
      // The next command succeeds: a dead owner's lock is recovered at once (well within the 5 s lock timeout).
      if (run % 10 === 0) {
        const next = runBin(BIN.cli, ['update', 'victim', '--metadata', `{"after_kill":${run}}`, '--dir', store], {
          dir,
        });
        expect(next.stderr).toBe('');
        expect(next.status).toBe(0);
        cliRecoveries++;
      } else {
        expect(
          (
            await fileStore.update('victim', (state) => ({
              ...state,
              metadata: { ...state.metadata, after_kill: run },
            }))
          ).metadata.after_kill,
        ).toBe(run);
      }
      expect(readValid(store, 'victim').metadata.after_kill).toBe(run);
      seen = new Set(readdirSync(join(store, 'victim')));
    }
    process.stdout.write(
      `[stress] SIGKILL updates: ${runs} kills (${afterWrites} after at least one completed write), ${locksLeft} left a lock, ` +
        `${withLeftovers} left temp files; 0 torn or invalid state.json; next command ok ${runs} times (${cliRecoveries} through the CLI)\n`,
    );
    expect(afterWrites).toBeGreaterThanOrEqual(runs / 2);

    // Young leftovers are kept (they could be a live writer's); aged ones are removed by `cleanup`.
    const before = leftovers(store);
    // Kills inside the write loop leave temp files and drafts (60–90 of 200 in practice): the sweep has work to prove.
    expect(before.length).toBeGreaterThan(0);
    freshenLeftovers(store);
    expect(runBin(BIN.cli, ['cleanup', '--hours', '24', '--dir', store], { dir }).status).toBe(0);
    expect(leftovers(store)).toEqual(before);
    ageLeftovers(store);
    const swept = runBin(BIN.cli, ['cleanup', '--hours', '24', '--json', '--dir', store], { dir });
    expect(swept.status).toBe(0);
    expect((JSON.parse(swept.stdout) as { leftovers_removed: number }).leftovers_removed).toBe(before.length);
    expect(leftovers(store)).toEqual([]);
    expect(readValid(store, 'victim').agent_id).toBe('victim');
    process.stdout.write(`[stress] SIGKILL updates: cleanup removed ${before.length} leftovers\n`);
  });

  it('SIGKILL of a creating writer at 50 random moments: no half session is ever visible, cleanup sweeps staging folders', async () => {
    const random = prng(seedOf('SIGKILL creates'));
    const store = join(dir, 'creates');
    const runs = 50;
    for (let run = 0; run < runs; run++) {
      await killAfter(
        [worker, 'crash-creates', store],
        run % 2 === 0 ? 20 + Math.floor(random() * 100) : Math.floor(random() * 30),
        run % 2 === 1,
      );
      // Every session folder holds a whole, valid state.json: a session appears whole or not at all.
      for (const name of sessionFolders(store)) expect(readValid(store, name).agent_id).toBe(name);
    }
    const listed = runBin(BIN.cli, ['list', '--json', '--dir', store], { dir });
    expect(listed.status).toBe(0);
    expect(listed.stderr).toBe(''); // no corrupt session to warn about
    const sessions = (JSON.parse(listed.stdout) as unknown[]).length;
    const staging = readdirSync(store).filter((name) => name.startsWith('.creating-')).length;
    ageLeftovers(store);
    const swept = runBin(BIN.cli, ['cleanup', '--hours', '24', '--json', '--dir', store], { dir });
    expect(swept.status).toBe(0);
    expect(leftovers(store)).toEqual([]);
    expect(sessionFolders(store)).toHaveLength(sessions);
    process.stdout.write(
      `[stress] SIGKILL creates: ${runs} kills, ${sessions} whole sessions, 0 partial; cleanup removed ${staging} staging folders and other leftovers\n`,
    );
  });

  it('SIGKILL of the CLI bin itself during update at 40 random moments: state.json always valid', async () => {
    const random = prng(seedOf('SIGKILL cli'));
    const store = join(dir, 'cli');
    expect(
      runBin(BIN.cli, ['create', '--agent', 'crash', '--purpose', 'p', '--id', 'cli-victim', '--dir', store], { dir })
        .status,
    ).toBe(0);
    const runs = 40;
    let killed = 0;
    for (let run = 0; run < runs; run++) {
      const big = JSON.stringify({ [`k${run}`]: 'z'.repeat(100_000) });
      const result = await new Promise<NodeJS.Signals | null>((done) => {
        const child = spawn(
          process.execPath,
          [
            BIN.cli,
            'update',
            'cli-victim',
            '--phase',
            run % 2 ? 'planning' : 'approval',
            '--metadata',
            big,
            '--dir',
            store,
          ],
          {
            cwd: dir,
            env: childEnv(dir),
            stdio: 'ignore',
          },
        );
        const timer = setTimeout(() => child.kill('SIGKILL'), 30 + Math.floor(random() * 120));
        child.on('close', (_status, signal) => {
          clearTimeout(timer);
          done(signal);
        });
      });
      if (result === 'SIGKILL') killed++;
      expect(readValid(store, 'cli-victim').agent_id).toBe('cli-victim');
    }
    const next = runBin(BIN.cli, ['update', 'cli-victim', '--phase', 'executing', '--dir', store], { dir });
    expect(next.status).toBe(0);
    process.stdout.write(`[stress] SIGKILL cli: ${runs} runs, ${killed} killed before finishing, 0 torn state.json\n`);
  });
});
