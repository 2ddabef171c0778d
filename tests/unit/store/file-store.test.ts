import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  type PathLike,
} from 'node:fs';
import { DEFAULT_PROJECT, withProject } from '../../../src/core/project';
import { execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionError } from '../../../src/core/errors';
import { codeOfAsync } from '../../helpers';
import { applyChange, newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';
import { Sessions } from '../../../src/service/sessions';
import { FileStore, serialize } from '../../../src/store/file-store';
import { acquireLock } from '../../../src/platform/lock';

let dir: string;
let root: string;
let store: FileStore;
const now = new Date('2026-01-08T18:00:00.000Z');
// The module object itself (an `import * as` namespace cannot be spied on): faults are injected into it.
const fs: typeof import('node:fs') = jest.requireActual('node:fs');
const session = (id: string): SessionState => newSession({ agent_id: id, agent_name: 'a', purpose: 'p' }, now);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  root = join(dir, 'session');
  store = new FileStore(root, { lock: { timeoutMs: 300, staleMs: 10_000 } });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('FileStore basics', () => {
  it('creates <root>/<id>/state.json and reads it back, as a session of its home project', async () => {
    await store.create(session('s1'));
    expect(JSON.parse(readFileSync(join(root, 's1', 'state.json'), 'utf8'))).toEqual(session('s1'));
    // A file naming no project belongs to the store's home project (DEFAULT_PROJECT when none is given).
    expect(await store.read('s1')).toEqual(withProject(session('s1'), DEFAULT_PROJECT));
  });

  it('writes a session of its home project without a project (the file an older version wrote), another one with it', async () => {
    const home = new FileStore(root, { home: 'github.com/acme/api' });
    await home.create(withProject(session('mine'), 'github.com/acme/api'));
    await home.create(withProject(session('theirs'), 'github.com/acme/web'));
    const mine = JSON.parse(readFileSync(join(root, 'mine', 'state.json'), 'utf8'));
    expect(mine).toEqual(session('mine'));
    expect(mine.schema_version).toBe(1);
    const theirs = JSON.parse(readFileSync(join(root, 'theirs', 'state.json'), 'utf8'));
    expect(theirs).toMatchObject({ schema_version: 5, project: 'github.com/acme/web' });
    expect((await home.read('mine'))?.project).toBe('github.com/acme/api');
    expect((await home.read('theirs'))?.project).toBe('github.com/acme/web');
    // A store of no project's folder reads a file naming none as unassigned.
    expect((await new FileStore(root, { home: null }).read('mine'))?.project).toBeUndefined();
  });

  it('read of an absent session is null and creates no folder', async () => {
    expect(await store.read('nope')).toBeNull();
    expect(await store.list()).toEqual([]);
    expect(existsSync(root)).toBe(false);
  });

  it('refuses a duplicate id and keeps the original', async () => {
    await store.create(session('dup'));
    await store.update('dup', (s) => applyChange(s, { metadata: { keep: true } }, now));
    expect(await codeOfAsync(() => store.create(session('dup')))).toBe('E_DUPLICATE');
    expect((await store.read('dup'))?.metadata).toEqual({ keep: true });
    expect(readdirSync(root).filter((name) => name.startsWith('.creating-'))).toEqual([]); // no staging folder left behind
    expect(readdirSync(root).filter((name) => !name.startsWith('.'))).toEqual(['dup']);
  });

  it('update of an absent session is E_NOT_FOUND and creates nothing', async () => {
    expect(await codeOfAsync(() => store.update('ghost', (s) => s))).toBe('E_NOT_FOUND');
    expect(existsSync(join(root, 'ghost'))).toBe(false);
  });

  it('a throwing change writes nothing and releases the lock', async () => {
    await store.create(session('s'));
    const before = readFileSync(join(root, 's', 'state.json'), 'utf8');
    expect(
      await codeOfAsync(() =>
        store.update('s', () => {
          throw new SessionError('E_ILLEGAL_TRANSITION', 'no');
        }),
      ),
    ).toBe('E_ILLEGAL_TRANSITION');
    expect(readFileSync(join(root, 's', 'state.json'), 'utf8')).toBe(before);
    expect(readdirSync(join(root, 's'))).toEqual(['state.json']);
  });

  it('writes leave no temp file and replace the file (new inode)', async () => {
    await store.create(session('s'));
    const before = statSync(join(root, 's', 'state.json')).ino;
    await store.update('s', (s) => applyChange(s, { phase: 'planning' }, now));
    expect(statSync(join(root, 's', 'state.json')).ino).not.toBe(before);
    expect(readdirSync(join(root, 's'))).toEqual(['state.json']);
    expect(readFileSync(join(root, 's', 'state.json'), 'utf8')).toBe(
      serialize(withProject((await store.read('s'))!, undefined)),
    );
  });

  it.each(['../x', '/etc', 'a/b', '..', '.', '', 'a\u0000b'])(
    'refuses the id %p before touching the disk',
    async (id) => {
      expect(await codeOfAsync(() => store.read(id))).toBe('E_USAGE');
      expect(await codeOfAsync(() => store.update(id, (s) => s))).toBe('E_USAGE');
      expect(await codeOfAsync(() => store.remove(id))).toBe('E_USAGE');
      expect(existsSync(root)).toBe(false);
    },
  );
});

describe('what cannot be stored', () => {
  it('a state nested too deeply for JSON is refused with E_USAGE, and nothing changes', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(await codeOfAsync(() => store.create({ ...session('deep'), metadata: { deep } }))).toBe('E_USAGE');
    expect(await store.read('deep')).toBeNull();
    // Only the store's own .gitignore (made with the folder: it keeps the store out of git).
    expect(readdirSync(root)).toEqual(['.gitignore']);
    await store.create(session('kept'));
    const before = readFileSync(join(root, 'kept', 'state.json'), 'utf8');
    expect(await codeOfAsync(() => store.update('kept', (state) => ({ ...state, metadata: { deep } })))).toBe(
      'E_USAGE',
    );
    expect(readFileSync(join(root, 'kept', 'state.json'), 'utf8')).toBe(before);
    expect(readdirSync(join(root, 'kept'))).toEqual(['state.json']);
  });

  it('a root that is a file is an I/O error to a listing and a sweep, not an empty store', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(root, 'x');
    expect(await codeOfAsync(() => store.list())).toBe('E_IO');
    expect(await codeOfAsync(() => store.maintenance.sweep(0, new Date()))).toBe('E_IO');
  });
});

describe('reading the same bytes again (the second read of a resume)', () => {
  it('gives an equal state of its own; changed bytes are decoded, and checked, again', async () => {
    await store.create({ ...session('s1'), metadata: { n: 1 } });
    const first = (await store.read('s1'))!;
    first.metadata.n = 2;
    const second = (await store.read('s1'))!;
    expect(second.metadata).toEqual({ n: 1 });
    second.metadata.n = 3;
    expect((await store.read('s1'))!.metadata).toEqual({ n: 1 });
    const file = join(root, 's1', 'state.json');
    writeFileSync(file, serialize({ ...session('s1'), metadata: { n: 4 } }));
    expect((await store.read('s1'))!.metadata).toEqual({ n: 4 });
    writeFileSync(file, JSON.stringify({ ...session('s1'), phase: 'dancing' }));
    expect(await codeOfAsync(() => store.read('s1'))).toBe('E_CORRUPT');
  });
});

describe('corrupt sessions', () => {
  const write = (id: string, content: string | Buffer) => {
    mkdirSync(join(root, id), { recursive: true });
    writeFileSync(join(root, id, 'state.json'), content);
  };

  it.each([
    ['truncated JSON', '{"agent_id": "c", "pha'],
    ['an empty file', ''],
    ['non-object JSON', '[1, 2]'],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['missing fields', '{"agent_id": "c"}'],
    ['an unknown phase', JSON.stringify({ ...session('c'), phase: 'dancing' })],
    ['a different agent_id', JSON.stringify(session('other'))],
  ])('%s is E_CORRUPT on read, listed as corrupt', async (_label, content) => {
    write('c', content);
    expect(await codeOfAsync(() => store.read('c'))).toBe('E_CORRUPT');
    expect(await codeOfAsync(() => store.update('c', (s) => s))).toBe('E_CORRUPT');
    const [entry] = await store.list();
    expect(entry).toMatchObject({ kind: 'corrupt', id: 'c' });
  });

  it('reads state.json as strict UTF-8: a byte-order mark is dropped, an encoded surrogate or overlong form refused', async () => {
    write('bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(session('bom')))]));
    expect(await store.read('bom')).toEqual(withProject(session('bom'), DEFAULT_PROJECT));
    // U+D800 encoded on its own, and `/` as an overlong two-byte form: neither is UTF-8 (TextDecoder refuses both).
    for (const bad of [
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
    ]) {
      const text = JSON.stringify({ ...session('odd'), purpose: 'XX' });
      write('odd', Buffer.concat([Buffer.from(text.slice(0, -3)), Buffer.from(bad), Buffer.from(text.slice(-2))]));
      expect(await codeOfAsync(() => store.read('odd'))).toBe('E_CORRUPT');
    }
  });

  it('a state.json that is a folder, and a folder without state.json, are corrupt', async () => {
    mkdirSync(join(root, 'folder', 'state.json'), { recursive: true });
    mkdirSync(join(root, 'empty'), { recursive: true });
    expect(await codeOfAsync(() => store.read('folder'))).toBe('E_CORRUPT');
    expect(await codeOfAsync(() => store.read('empty'))).toBe('E_CORRUPT');
    expect((await store.list()).map((e) => [e.id, e.kind]).sort()).toEqual([
      ['empty', 'corrupt'],
      ['folder', 'corrupt'],
    ]);
  });

  it('a FIFO planted as state.json is corrupt, never waited on', async () => {
    mkdirSync(join(root, 'fifo'), { recursive: true });
    execFileSync('mkfifo', [join(root, 'fifo', 'state.json')]);
    expect(await codeOfAsync(() => store.read('fifo'))).toBe('E_CORRUPT');
    expect(await store.list()).toEqual([expect.objectContaining({ kind: 'corrupt', id: 'fifo' })]);
  });

  it('an old folder without state.json is not ours: remove refuses it, writes no lock into it, and keeps it', async () => {
    mkdirSync(join(root, 'empty-old'), { recursive: true });
    const old = new Date(Date.now() - 3 * 86_400_000);
    utimesSync(join(root, 'empty-old'), old, old);
    expect(await codeOfAsync(() => store.remove('empty-old', () => true))).toBe('E_REFUSED');
    expect(await codeOfAsync(() => store.update('empty-old', (s) => s))).toBe('E_CORRUPT');
    expect(readdirSync(join(root, 'empty-old'))).toEqual([]);
    const listed = expect.objectContaining({
      id: 'empty-old',
      kind: 'corrupt',
      notOurs: expect.stringMatching(/no state\.json/),
    });
    expect(await store.list()).toEqual([listed]);
  });

  it.each([
    ['a file we never make', 'notes.txt', 'E_REFUSED'],
    ['a temp file named almost like ours', '.state.json.tmp', 'E_REFUSED'],
    ['a leftover temp file of ours', '.state.json.123.0000abcd.tmp', null],
    ['a lock draft of ours', 'state.json.lock.7.deadbeef.tmp', null],
  ])('a session folder holding %s: %s', async (_name, file, code) => {
    await store.create(session('s'));
    writeFileSync(join(root, 's', file), 'x');
    if (code === null) expect(await store.remove('s')).toBe(true);
    else expect(await codeOfAsync(() => store.remove('s'))).toBe(code);
    expect(existsSync(join(root, 's'))).toBe(code !== null);
  });

  it.each([
    ['a valid session', () => serialize(session('s')), true],
    ['an unknown phase', () => JSON.stringify({ ...session('s'), phase: 'dancing' }), true],
    ['missing fields (its id and version kept)', () => JSON.stringify({ schema_version: 1, agent_id: 's' }), true],
    ['the original layout (no schema_version)', () => JSON.stringify({ agent_id: 's', phase: 9 }), true],
    ['another agent_id', () => serialize(session('other')), false],
    ['no agent_id', () => JSON.stringify({ schema_version: 1 }), false],
    [
      'a schema_version that is not a whole number',
      () => JSON.stringify({ schema_version: '1', agent_id: 's' }),
      false,
    ],
    ['not JSON', () => 'milk, eggs', false],
    ['torn JSON', () => serialize(session('s')).slice(0, 40), false],
    ['an empty file', () => '', false],
    ['a JSON array', () => '[]', false],
  ])('a folder whose state.json holds %s: ours to remove: %s', async (_name, text, ours) => {
    mkdirSync(join(root, 's'), { recursive: true });
    writeFileSync(join(root, 's', 'state.json'), text());
    if (ours) expect(await store.remove('s', () => true)).toBe(true);
    else {
      expect(await codeOfAsync(() => store.remove('s', () => true))).toBe('E_REFUSED');
      expect(readdirSync(join(root, 's'))).toEqual(['state.json']); // no lock written into it either
      expect(await store.list()).toEqual([expect.objectContaining({ id: 's', notOurs: expect.any(String) })]);
    }
    expect(existsSync(join(root, 's'))).toBe(!ours);
  });

  it('a removal racing an outside removal (the folder vanishes under the lock) is "not found", not an I/O error', async () => {
    await store.create(session('raced'));
    const vanish = (): boolean => {
      rmSync(join(root, 'raced'), { recursive: true, force: true });
      return true;
    };
    expect(await store.remove('raced', vanish)).toBe(false);
  });

  it('one corrupt session never hides the valid ones', async () => {
    await store.create(session('good'));
    write('bad', 'garbage');
    expect((await store.list()).map((e) => `${e.id}:${e.kind}`).sort()).toEqual(['bad:corrupt', 'good:valid']);
  });

  it('never reads, writes or deletes through a symbolic link', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'state.json'), JSON.stringify(session('linked')));
    mkdirSync(root, { recursive: true });
    symlinkSync(outside, join(root, 'linked'));
    mkdirSync(join(root, 'filelink'));
    symlinkSync(join(outside, 'state.json'), join(root, 'filelink', 'state.json'));

    expect(await codeOfAsync(() => store.read('linked'))).toBe('E_CORRUPT');
    expect(await codeOfAsync(() => store.read('filelink'))).toBe('E_CORRUPT');
    expect(await codeOfAsync(() => store.update('linked', (s) => s))).toBe('E_CORRUPT');
    expect(readdirSync(outside)).toEqual(['state.json']); // no lock or temp file written there
    // Neither a linked session folder nor a folder whose state.json is a link shows it is ours: both are left alone,
    // and so is what they point to.
    expect(await codeOfAsync(() => store.remove('linked'))).toBe('E_REFUSED');
    expect(await codeOfAsync(() => store.remove('filelink'))).toBe('E_REFUSED');
    expect(lstatSync(join(root, 'filelink', 'state.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(outside, 'state.json'), 'utf8')).toBe(JSON.stringify(session('linked')));
  });
});

describe('locking', () => {
  it('waits for a held lock and fails with E_BUSY after the timeout, writing nothing', async () => {
    await store.create(session('busy'));
    const release = acquireLock(join(root, 'busy', 'state.json.lock'));
    try {
      expect(await codeOfAsync(() => store.update('busy', (s) => applyChange(s, { phase: 'planning' }, now)))).toBe(
        'E_BUSY',
      );
      expect((await store.read('busy'))?.phase).toBe('initializing');
    } finally {
      release();
    }
    expect((await store.update('busy', (s) => applyChange(s, { phase: 'planning' }, now))).phase).toBe('planning');
  });

  it('recovers a lock whose owner is dead', async () => {
    await store.create(session('dead'));
    // pid 2^22+1 is above Linux's pid_max default, so no process has it.
    writeFileSync(join(root, 'dead', 'state.json.lock'), `4194305 ${Date.now()} x`);
    expect((await store.update('dead', (s) => applyChange(s, { phase: 'planning' }, now))).phase).toBe('planning');
    expect(readdirSync(join(root, 'dead'))).toEqual(['state.json']);
  });

  it('never takes a lock from a live owner, however old (a slow writer keeps its lock)', async () => {
    await store.create(session('slow'));
    const start = readFileSync('/proc/self/stat', 'utf8');
    const myStart = start.slice(start.lastIndexOf(')') + 2).split(' ')[19];
    writeFileSync(join(root, 'slow', 'state.json.lock'), `${process.pid} ${myStart} ${Date.now() - 3_600_000} x`);
    expect(await codeOfAsync(() => store.update('slow', (s) => applyChange(s, { phase: 'planning' }, now)))).toBe(
      'E_BUSY',
    );
    expect((await store.read('slow'))?.phase).toBe('initializing');
  });

  it('recovers a lock whose pid now names another process (pid reuse)', async () => {
    await store.create(session('reused'));
    writeFileSync(join(root, 'reused', 'state.json.lock'), `${process.pid} 1 ${Date.now()} x`);
    expect((await store.update('reused', (s) => applyChange(s, { phase: 'planning' }, now))).phase).toBe('planning');
    expect(readdirSync(join(root, 'reused'))).toEqual(['state.json']);
  });

  it('attaching a Claude agent (through the service) leaves no lock file behind', async () => {
    const sessions = new Sessions({ store });
    await sessions.attachClaudeAgent({ agent_id: 'a0123456789abcdef', agent_type: 'terraform-architect' });
    const locks = ['.agents', '.claude-agents'].flatMap((folder) =>
      readdirSync(join(root, folder)).filter((n) => n.includes('.lock')),
    );
    expect(locks).toEqual([]);
  });
});

describe('parallel writers', () => {
  it('10 processes updating one session lose no update', async () => {
    const cli = join(__dirname, '..', '..', '..', 'dist', 'agent-session.cjs');
    await store.create(session('shared'));
    const runs = Array.from(
      { length: 10 },
      (_, i) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(
            process.execPath,
            [
              cli,
              '--dir',
              root,
              'update',
              'shared',
              '--error',
              `e${i}`,
              '--metadata',
              JSON.stringify({ [`k${i}`]: i }),
            ],
            {
              env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
              stdio: 'ignore',
            },
          );
          child.on('exit', resolve);
        }),
    );
    expect(await Promise.all(runs)).toEqual(Array(10).fill(0));
    const state = (await store.read('shared'))!;
    expect(state.error_count).toBe(10);
    expect(Object.keys(state.metadata).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`).sort());
  });
});

describe('remove and sweep', () => {
  it('remove asks the predicate under the lock', async () => {
    await store.create(session('keep'));
    expect(await store.remove('keep', () => false)).toBe(false);
    expect(await store.read('keep')).not.toBeNull();
    expect(await store.remove('keep', (state) => state?.agent_id === 'keep')).toBe(true);
    expect(await store.read('keep')).toBeNull();
    expect(await store.remove('keep')).toBe(false);
  });

  describe('a writer that drops its lock draft into a folder being removed', () => {
    const realRmSync = fs.rmSync;
    const lateDraft = (path: PathLike): void =>
      writeFileSync(join(String(path), 'state.json.lock.1.0000abcd.tmp'), 'draft');
    const enotempty = (path: PathLike): Error =>
      Object.assign(new Error(`ENOTEMPTY: directory not empty, rmdir '${String(path)}'`), { code: 'ENOTEMPTY' });
    const removing = (): string[] => readdirSync(root).filter((name) => name.startsWith('.removing-'));
    afterEach(() => jest.restoreAllMocks());

    it('removes the late entry too: the removal succeeds and leaves nothing', async () => {
      await store.create(session('raced'));
      let raced = 0;
      jest.spyOn(fs, 'rmSync').mockImplementation((path, options) => {
        // rm had listed the folder; the writer's draft arrives before its last rmdir.
        if (String(path).includes('.removing-') && raced++ === 0) {
          lateDraft(path);
          throw enotempty(path);
        }
        realRmSync(path, options);
      });
      expect(await store.remove('raced')).toBe(true);
      expect(raced).toBe(2);
      expect(await store.read('raced')).toBeNull();
      expect(removing()).toEqual([]);
    });

    it('a folder that keeps refilling is still a done removal, and the sweep takes what is left', async () => {
      await store.create(session('refilled'));
      jest.spyOn(fs, 'rmSync').mockImplementation((path, options) => {
        if (!String(path).includes('.removing-')) return realRmSync(path, options);
        lateDraft(path);
        throw enotempty(path);
      });
      expect(await store.remove('refilled')).toBe(true);
      jest.restoreAllMocks();
      expect(await store.read('refilled')).toBeNull();
      expect(await store.list()).toEqual([]);
      const [left] = removing();
      expect(left).toBeDefined();
      const old = new Date(Date.now() - 120_000);
      utimesSync(join(root, left!), old, old);
      expect(await store.maintenance.sweep(60_000, new Date())).toHaveLength(1);
      expect(removing()).toEqual([]);
    });

    it('any other failure to remove is an E_IO', async () => {
      await store.create(session('denied'));
      jest.spyOn(fs, 'rmSync').mockImplementation((path, options) => {
        if (!String(path).includes('.removing-')) return realRmSync(path, options);
        throw Object.assign(new Error(`EACCES: permission denied, rmdir '${String(path)}'`), { code: 'EACCES' });
      });
      expect(await codeOfAsync(() => store.remove('denied'))).toBe('E_IO');
    });
  });

  it('cleanup sweeps attach locks of killed processes, never a live one', async () => {
    // Through the service (cleanup reports the count): the lock files and their owners are the file store's.
    const sessions = new Sessions({ store: new FileStore(root, { now: () => now }) });
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'x' });
    mkdirSync(join(root, '.locks'), { recursive: true });
    const dead = join(root, '.locks', 'agent-61.lock');
    const live = join(root, '.locks', 'type-61.lock');
    // A lock-like file in a folder that is not ours, with no owner in it: never ours to remove.
    mkdirSync(join(root, 'notes'));
    const foreign = join(root, 'notes', 'build.lock');
    writeFileSync(foreign, 'not a lock of ours');
    // No process has pid 2^22 + 1 on Linux (pid_max is at most 2^22).
    writeFileSync(dead, `${2 ** 22 + 1} 1 ${Date.now()} x`);
    writeFileSync(
      live,
      `${process.pid} ${readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[19]} ${Date.now()} y`,
    );
    const old = new Date(now.getTime() - 3_600_000);
    utimesSync(dead, old, old);
    utimesSync(live, old, old);
    utimesSync(foreign, old, old);
    expect((await sessions.cleanup({ hours: 24 })).leftovers).toBe(1);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
  });

  it('sweep removes old temp files and staging folders, and keeps fresh ones', async () => {
    await store.create(session('s'));
    const old = new Date(now.getTime() - 3_600_000);
    writeFileSync(join(root, 's', '.state.json.123.0000abcd.tmp'), 'partial');
    writeFileSync(join(root, 's', 'state.json.lock.123.0000abcd.tmp'), 'draft');
    writeFileSync(join(root, 's', '.state.json.999.0000ffff.tmp'), 'fresh');
    mkdirSync(join(root, '.creating-abc123'));
    const aged = [join(root, 's', '.state.json.123.0000abcd.tmp'), join(root, 's', 'state.json.lock.123.0000abcd.tmp')];
    aged.push(join(root, '.creating-abc123'));
    for (const path of aged) utimesSync(path, old, old);
    expect(await store.maintenance.sweep(60_000, now)).toHaveLength(3);
    expect(readdirSync(join(root, 's')).sort()).toEqual(['.state.json.999.0000ffff.tmp', 'state.json']);
    expect(existsSync(join(root, '.creating-abc123'))).toBe(false);
  });

  it('sweep removes only our exact leftover names: other old .tmp files and hidden folders are kept', async () => {
    const old = new Date(now.getTime() - 3_600_000);
    const foreign = [join(root, 'projects', 'draft.tmp'), join(root, 'projects', 'x.lock.break')];
    foreign.push(join(root, '.creating-notes'), join(root, '.removing-old'));
    mkdirSync(join(root, 'projects'), { recursive: true });
    for (const path of foreign) writeFileSync(path, 'mine');
    for (const path of foreign) utimesSync(path, old, old);
    expect(await store.maintenance.sweep(60_000, now)).toEqual([]);
    for (const path of foreign) expect(existsSync(path)).toBe(true);
  });
});

describe('stats from the listing cache (issue 45)', () => {
  it('counts from the cached facts, and reads a session whose cached facts are damaged: the answer stays a full read', async () => {
    const states = ['s1', 's2', 's3'].map((id, n) => ({
      ...applyChange(session(id), { phase: 'investigating', error: n === 1 ? 'boom' : undefined }, now),
    }));
    for (const state of states) await store.create(state);
    const query = { activeSince: new Date(now.getTime() - 31 * 60_000) };
    const full = await store.stats(undefined, query);
    const cachePath = join(root, '.listing-cache.json');
    const cache = JSON.parse(readFileSync(cachePath, 'utf8')) as { rows: Record<string, unknown[]> };
    expect(Object.keys(cache.rows).sort()).toEqual(['s1', 's2', 's3']);
    // A facts row another version wrote, or damaged: the session is read, its facts taken from its state.
    cache.rows.s2![5] = ['not', 'facts'];
    writeFileSync(cachePath, JSON.stringify(cache));
    const again = await store.stats(undefined, query);
    expect(again.tally).toEqual(full.tally);
    expect(again.tally.overall.sums).toMatchObject({ sessions: 3 });
    expect(again.tally.overall.sums.by_error_count).toEqual({ '0': 2, '1': 1 });
  });
});
