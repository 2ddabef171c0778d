// Guarantee: a corrupt store is reported, never trusted, and never a way out of the store. Each case damages
// one session (`bad`) beside a good one, then runs every command and both hooks through the built bins.
import { execFileSync, type SpawnSyncReturns } from 'node:child_process';
import {
  lutimesSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { newSession } from '../../src/core/session';
import { serialize } from '../../src/store/file-store';
import { BIN, STACK_LINE, makeTemp, removeTemp, runBin, sessionFolders, snapshot } from './helpers';

/**
 * The good session, of the project the bins run for (the folder `dir`, which has no remote): the store is a folder of
 * no project's (`<dir>/store`), where a session naming none would be unassigned.
 */
const good = (dir: string): string =>
  serialize({
    ...newSession(
      { agent_id: 'good', agent_name: 'agent', purpose: 'p', project: `path:${realpathSync(dir)}` },
      new Date(),
    ),
    phase: 'planning',
    resume_ready: true,
  });
const BAD_VALID = serialize(newSession({ agent_id: 'bad', agent_name: 'agent', purpose: 'p' }, new Date()));
const OLD = new Date(Date.now() - 48 * 3_600_000);

interface Case {
  readonly name: string;
  /**
   * The damage leaves an entry that does not show it is agent-session's (no state.json, a link, a state.json that is
   * not a JSON object naming this id): cleanup and delete report it and leave it.
   */
  readonly notOurs?: true;
  /** Damages `<store>/bad`; `outside` is a folder beside the store that nothing may touch. */
  readonly make: (store: string, outside: string) => void;
}

const writeBad = (text: string | Buffer) => (store: string) => {
  mkdirSync(join(store, 'bad'));
  writeFileSync(join(store, 'bad', 'state.json'), text);
};
const withField = (change: Record<string, unknown>, drop: readonly string[] = []): string => {
  const raw = JSON.parse(BAD_VALID) as Record<string, unknown>;
  for (const key of drop) delete raw[key];
  return JSON.stringify({ ...raw, ...change });
};

const CASES: readonly Case[] = [
  { name: 'truncated JSON', make: writeBad(BAD_VALID.slice(0, BAD_VALID.length >> 1)), notOurs: true },
  { name: 'empty file', make: writeBad(''), notOurs: true },
  { name: 'non-object JSON (array)', make: writeBad('[1, 2, 3]'), notOurs: true },
  { name: 'non-object JSON (string)', make: writeBad('"state"'), notOurs: true },
  { name: 'non-object JSON (null)', make: writeBad('null'), notOurs: true },
  {
    name: 'invalid UTF-8',
    notOurs: true,
    make: writeBad(
      Buffer.concat([
        Buffer.from(BAD_VALID.slice(0, 40)),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from(BAD_VALID.slice(40)),
      ]),
    ),
  },
  { name: 'missing fields', make: writeBad(withField({}, ['phase', 'history'])) },
  { name: 'wrong types', make: writeBad(withField({ error_count: '3', metadata: [], resume_ready: 'yes' })) },
  { name: 'unknown phase', make: writeBad(withField({ phase: 'dancing' })) },
  { name: 'another id inside', make: writeBad(withField({ agent_id: 'good' })), notOurs: true },
  {
    name: '__proto__ in metadata JSON',
    make: writeBad(withField({ metadata: JSON.parse('{"__proto__": {"polluted": true}}') as unknown, phase: 42 })),
  },
  {
    name: 'state.json is a folder',
    make: (store) => mkdirSync(join(store, 'bad', 'state.json'), { recursive: true }),
    notOurs: true,
  },
  { name: 'session folder without state.json', make: (store) => mkdirSync(join(store, 'bad')), notOurs: true },
  {
    name: 'session folder is a link outside the store',
    notOurs: true,
    make: (store, outside) => {
      // The target is a valid session for this id: following the link would "work", so it would show.
      mkdirSync(join(outside, 'target'));
      writeFileSync(join(outside, 'target', 'state.json'), BAD_VALID);
      utimesSync(join(outside, 'target', 'state.json'), OLD, OLD); // old target, fresh link: cleanup must judge the link
      symlinkSync(join(outside, 'target'), join(store, 'bad'));
    },
  },
  {
    name: 'state.json is a link outside the store',
    notOurs: true,
    make: (store, outside) => {
      writeFileSync(join(outside, 'state.json'), BAD_VALID);
      mkdirSync(join(store, 'bad'));
      symlinkSync(join(outside, 'state.json'), join(store, 'bad', 'state.json'));
    },
  },
];

let dir: string;
beforeEach(() => {
  dir = makeTemp();
});
afterEach(() => removeTemp(dir));

function setUp(make: Case['make']): { store: string; outside: string } {
  const store = join(dir, 'store');
  const outside = join(dir, 'outside');
  mkdirSync(join(store, 'good'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(store, 'good', 'state.json'), good(dir));
  writeFileSync(join(outside, 'precious.txt'), 'do not touch');
  make(store, outside);
  return { store, outside };
}

/** One clear line on stderr, the expected exit code, no stack trace anywhere. */
function expectOneLine(result: SpawnSyncReturns<string>, status: number): void {
  expect({ status: result.status, signal: result.signal }).toEqual({ status, signal: null });
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/\S/);
  expect(result.stdout + result.stderr).not.toMatch(STACK_LINE);
}

/** A hook answer: exit 0, exactly one JSON object line on stdout, no stack trace. */
function hookAnswer(result: SpawnSyncReturns<string>): Record<string, unknown> {
  expect({ status: result.status, signal: result.signal }).toEqual({ status: 0, signal: null });
  expect(result.stdout + result.stderr).not.toMatch(STACK_LINE);
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  const answer = JSON.parse(lines[0]!) as unknown;
  expect(typeof answer === 'object' && answer !== null && !Array.isArray(answer)).toBe(true);
  return answer as Record<string, unknown>;
}

describe('corrupt stores', () => {
  it.each(CASES)(
    '$name: one clear line per command, list/cleanup/hooks never crash, nothing outside touched',
    ({ make, notOurs }) => {
      const { store, outside } = setUp(make);
      const outsideBefore = snapshot(outside);
      const run = (...args: string[]) => runBin(BIN.cli, [...args, '--dir', store], { dir });

      expectOneLine(run('get', 'bad'), 4);
      expectOneLine(run('update', 'bad', '--phase', 'planning'), 4);
      expectOneLine(run('update', 'bad', '--metadata', '{"a":1}'), 4);
      expectOneLine(run('finalize', 'bad', 'completed'), 4);
      expectOneLine(run('show', 'bad'), 4);
      expectOneLine(run('approve', 'bad', '--by', 'alice'), 4);
      expectOneLine(run('reject', 'bad', '--by', 'alice', '--reason', 'no'), 4);
      const explained = run('should-resume', 'bad', '--explain');
      expect(explained.status).toBe(1);
      expect(explained.stdout).toMatch(/^false invalid_state\n {2}problem: .+\n$/);
      for (const listing of [run('pending', '--json'), run('report')]) {
        expect(listing.status).toBe(0);
        expect(listing.stderr.trimEnd().split('\n')).toHaveLength(1); // one warning: the corrupt session left out
      }
      const resume = run('should-resume', 'bad');
      expect(resume.status).toBe(1);
      expect(resume.stdout).toBe('false invalid_state\n');

      const list = run('list');
      expect(list.status).toBe(0);
      expect(list.stdout).toMatch(/^good\s/m);
      expect(list.stdout).toMatch(/^bad\s.*corrupt/m);
      expect(list.stderr.trimEnd().split('\n')).toHaveLength(1); // one warning for the one corrupt session
      const active = run('list', '--active-only', '--json');
      expect(active.status).toBe(0);
      expect((JSON.parse(active.stdout) as Array<{ agent_id: string }>).map((entry) => entry.agent_id)).toEqual([
        'good',
      ]);
      expect(active.stderr).toMatch(/\S/);

      const byId = hookAnswer(
        runBin(BIN.preDelegate, [], {
          dir,
          input: '{"agent_name":"agent","agent_id":"bad"}',
          env: { AGENT_SESSION_DIR: store },
        }),
      );
      expect(byId).toMatchObject({ should_resume: false, reason: 'invalid_state' });
      const byName = hookAnswer(
        runBin(BIN.preDelegate, [], { dir, input: '{"agent_name":"agent"}', env: { AGENT_SESSION_DIR: store } }),
      );
      expect(byName).toMatchObject({ should_resume: true, agent_id: 'good' });
      const stop = hookAnswer(
        runBin(BIN.subagentStop, [], {
          dir,
          input: '{"task_info":{"agent_id":"bad"},"exit_code":0}',
          env: { AGENT_SESSION_DIR: store },
        }),
      );
      expect(stop).toMatchObject({ finalized: false, reason: 'invalid_state' });

      // A fresh corrupt session is kept by cleanup; the good one too.
      const kept = run('cleanup', '--hours', '24', '--json');
      expect(kept.status).toBe(0);
      expect(JSON.parse(kept.stdout)).toMatchObject({ removed: [], corrupt_removed: [] });
      expect(sessionFolders(store).sort()).toEqual(['bad', 'good']);
      expect(snapshot(outside)).toEqual(outsideBefore);

      // Removing everything removes our damaged session itself; an entry that does not show it is ours (no
      // state.json, a link, a state.json that is not JSON naming this id) is reported and left alone, whatever its age.
      // Never what a link points to.
      const all = run('cleanup', '--hours', '0', '--json');
      expect(all.status).toBe(0);
      if (notOurs) {
        expect(JSON.parse(all.stdout)).toMatchObject({
          removed: ['good'],
          corrupt_removed: [],
          not_ours: [{ id: 'bad' }],
        });
        expect(sessionFolders(store)).toEqual(['bad']);
      } else {
        expect(JSON.parse(all.stdout)).toMatchObject({ removed: ['good'], corrupt_removed: ['bad'], not_ours: [] });
        expect(sessionFolders(store)).toEqual([]);
      }
      expect(snapshot(outside)).toEqual(outsideBefore);
    },
  );

  it.each(CASES)(
    '$name: delete removes the session itself and nothing outside, or refuses what is not ours',
    ({ make, notOurs }) => {
      const { store, outside } = setUp(make);
      const outsideBefore = snapshot(outside);
      const deleted = runBin(BIN.cli, ['delete', 'bad', '--dir', store], { dir });
      if (notOurs) expectOneLine(deleted, 4);
      else expect(deleted.status).toBe(0);
      expect(sessionFolders(store).sort()).toEqual(notOurs ? ['bad', 'good'] : ['good']);
      expect(snapshot(outside)).toEqual(outsideBefore);
    },
  );

  it('an old session folder without state.json is not ours: cleanup reports it and leaves it (and writes no lock into it)', () => {
    const { store } = setUp((s) => mkdirSync(join(s, 'bad')));
    utimesSync(join(store, 'bad'), OLD, OLD);
    const result = runBin(BIN.cli, ['cleanup', '--hours', '24', '--json', '--dir', store], { dir });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ removed: [], corrupt_removed: [], not_ours: [{ id: 'bad' }] });
    expect(sessionFolders(store).sort()).toEqual(['bad', 'good']);
    expect(readdirSync(join(store, 'bad'))).toEqual([]);
  });

  it('a lock file that is a link outside the store is never read or written through', () => {
    const { store, outside } = setUp((s) => writeBad(BAD_VALID)(s));
    // A FIFO: any open() for reading would block until the spawn timeout, so a read through the link shows.
    execFileSync('mkfifo', [join(outside, 'fifo')]);
    symlinkSync(join(outside, 'fifo'), join(store, 'bad', 'state.json.lock'));
    const outsideBefore = snapshot(outside);
    const result = runBin(BIN.cli, ['update', 'bad', '--phase', 'planning', '--dir', store], {
      dir,
      timeoutMs: 15_000,
    });
    expect({ status: result.status, signal: result.signal, stderr: result.stderr }).toEqual({
      status: 0,
      signal: null,
      stderr: '',
    });
    expect(snapshot(outside)).toEqual(outsideBefore);
  });

  it('a leftover temp file that is a link outside the store: cleanup removes the link, not its target', () => {
    const { store, outside } = setUp((s) => writeBad(BAD_VALID)(s));
    writeFileSync(join(outside, 'target.tmp'), 'outside');
    const link = join(store, 'bad', '.state.json.1.deadbeef.tmp');
    symlinkSync(join(outside, 'target.tmp'), link);
    lutimesSync(link, OLD, OLD);
    const outsideBefore = snapshot(outside);
    const result = runBin(BIN.cli, ['cleanup', '--hours', '24', '--json', '--dir', store], { dir });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ leftovers_removed: 1 });
    expect(readdirSync(join(store, 'bad'))).toEqual(['state.json']);
    expect(snapshot(outside)).toEqual(outsideBefore);
    unlinkSync(join(outside, 'target.tmp'));
  });
});
