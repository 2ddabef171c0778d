// The indexes are complete (a marker in each folder): the lookup of a Claude agent id or an agent name that has no
// pointer answers "none" without reading a session, so the events of a new Claude agent cost the same in a store of
// any size. These tests count the state.json files opened (node:fs spied on, as the environment stress suite does).
import { DEFAULT_PROJECT } from '../../../src/core/project';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { withClaudeLink } from '../../../src/core/claude-link';
import { newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';
import { Sessions } from '../../../src/service/sessions';
import { INDEX_DIR } from '../../../src/store/agent-index';
import { CLAUDE_INDEX_DIR } from '../../../src/store/claude-index';
import { FileStore } from '../../../src/store/file-store';
import { generateSessions } from '../../support/generate-sessions';
import { codeOfAsync } from '../../helpers';

// The node:fs module object itself (what src/ requires): its functions can be spied on, unlike a namespace import.
const fs: typeof import('node:fs') = jest.requireActual('node:fs');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
const claudePointer = (root: string, agentId: string): string => join(root, CLAUDE_INDEX_DIR, hex(agentId));
const namePointer = (root: string, name: string): string => join(root, INDEX_DIR, `${hex(name)}.json`);

/** How many times a state.json was opened while `work` ran (each session read opens it once). */
async function stateReads(work: () => Promise<unknown>): Promise<number> {
  const spy = jest.spyOn(fs, 'openSync');
  try {
    await work();
    return spy.mock.calls.filter(([path]) => basename(String(path)) === 'state.json').length;
  } finally {
    spy.mockRestore();
  }
}

/** Records every fsync (with the path its descriptor was opened on) and every rename (its target), in order. */
function recordWrites(): { events: string[]; restore: () => void } {
  const events: string[] = [];
  const paths = new Map<number, string>();
  const realOpen = fs.openSync;
  const realFsync = fs.fsyncSync;
  const realRename = fs.renameSync;
  const spies = [
    jest.spyOn(fs, 'openSync').mockImplementation(((path: string, ...rest: never[]) => {
      const fd = (realOpen as (...args: unknown[]) => number)(path, ...rest);
      paths.set(fd, String(path));
      return fd;
    }) as typeof fs.openSync),
    jest.spyOn(fs, 'fsyncSync').mockImplementation(((fd: number) => {
      events.push(`fsync ${paths.get(fd)}`);
      realFsync(fd);
    }) as typeof fs.fsyncSync),
    jest.spyOn(fs, 'renameSync').mockImplementation(((from: string, to: string) => {
      events.push(`rename ${String(to)}`);
      realRename(from, to);
    }) as typeof fs.renameSync),
  ];
  return { events, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

/**
 * A store of `count` generated sessions written through agent-session (so with its pointers and markers), plus a
 * parked session of `parked-type` and a finished one of `done-type`.
 */
async function storeOf(count: number): Promise<{ root: string; sessions: Sessions }> {
  const root = join(dir, `store-${count}`);
  const store = new FileStore(root);
  for (const state of generateSessions({ count, now: new Date() })) await store.create(state);
  const sessions = new Sessions({ store });
  const parked = await sessions.create({ agent_name: 'parked-type', purpose: 'p' });
  await sessions.update(parked.agent_id, { phase: 'approval' });
  const done = await sessions.create({ agent_name: 'done-type', purpose: 'p' });
  await sessions.finalize(done.agent_id, 'completed');
  return { root, sessions: new Sessions({ store: new FileStore(root) }) };
}

describe('the events of a new Claude agent read the same number of sessions whatever the store size', () => {
  const events: [string, (sessions: Sessions) => Promise<unknown>][] = [
    ['SubagentStart of a brand-new type', (s) => s.attachClaudeAgent({ agent_id: 'a1', agent_type: 'new-type' })],
    [
      'SubagentStart of a type with a parked session',
      (s) => s.attachClaudeAgent({ agent_id: 'a2', agent_type: 'parked-type' }),
    ],
    [
      'SubagentStart of a type with none parked',
      (s) => s.attachClaudeAgent({ agent_id: 'a3', agent_type: 'done-type' }),
    ],
    ['SubagentStop before its start', (s) => s.claudeAgentStopped({ agent_id: 'a4', agent_type: 'new-type' })],
    ['SubagentStop of an unknown agent without a type', (s) => s.claudeAgentStopped({ agent_id: 'a5' })],
    ['PostToolUse completed (findByClaudeAgent)', (s) => s.findByClaudeAgent('a6')],
    ['PreToolUse of a brand-new type (parkedOf)', (s) => s.parkedOf('new-type')],
  ];

  it.each(events)('%s', async (_label, event) => {
    const small = await storeOf(5);
    const large = await storeOf(60);
    const reads = [await stateReads(() => event(small.sessions)), await stateReads(() => event(large.sessions))];
    expect(reads[1]).toBe(reads[0]);
    // A handful at most: the parked session read to decide, then under its lock to relink it.
    expect(reads[0]).toBeLessThanOrEqual(2);
  });

  it('attaches as before: the parked session is resumed, a new type gets a new session, a new agent is unknown', async () => {
    const { sessions } = await storeOf(20);
    expect((await sessions.attachClaudeAgent({ agent_id: 'b1', agent_type: 'parked-type' }))?.action).toBe('relinked');
    expect((await sessions.attachClaudeAgent({ agent_id: 'b2', agent_type: 'new-type' }))?.action).toBe('created');
    expect((await sessions.attachClaudeAgent({ agent_id: 'b1', agent_type: 'parked-type' }))?.action).toBe('linked');
    expect(await sessions.claudeAgentStopped({ agent_id: 'b3' })).toBeNull();
    expect(await sessions.findByClaudeAgent('b3')).toBeNull();
    expect((await sessions.newestOf('new-type'))?.claude?.agent_id).toBe('b2');
  });
});

describe('a store an older version made (no marker)', () => {
  it('is listed once by its first lookup, which restores lost pointers and marks both indexes complete', async () => {
    const { root, sessions } = await storeOf(30);
    const linked = (await sessions.list()).flatMap((e) => (e.kind === 'valid' && e.state.claude ? [e.state] : []));
    expect(linked.length).toBeGreaterThan(3);
    // As an older version leaves it: no markers, and pointers lost (written without fsync, or never).
    rmSync(join(root, CLAUDE_INDEX_DIR), { recursive: true });
    rmSync(join(root, INDEX_DIR, 'complete.json'));
    rmSync(namePointer(root, linked[0]!.agent_name));
    const total = (await sessions.list()).length;
    // The first lookup lists the store once (it cannot know better), and answers right.
    expect(await stateReads(() => sessions.attachClaudeAgent({ agent_id: 'c1', agent_type: 'new-type' }))).toBe(total);
    for (const state of linked)
      expect(readFileSync(claudePointer(root, state.claude!.agent_id), 'utf8')).toBe(state.agent_id);
    expect(existsSync(join(root, CLAUDE_INDEX_DIR, 'complete.json'))).toBe(true);
    expect(existsSync(join(root, INDEX_DIR, 'complete.json'))).toBe(true);
    expect(existsSync(namePointer(root, linked[0]!.agent_name))).toBe(true);
    // A linked agent's next event finds its session (never a second one); a new agent costs no session read.
    const again = await sessions.attachClaudeAgent({ agent_id: linked[1]!.claude!.agent_id, agent_type: 'x' });
    expect(again?.state.agent_id).toBe(linked[1]!.agent_id);
    expect(await stateReads(() => sessions.attachClaudeAgent({ agent_id: 'c2', agent_type: 'new-type-2' }))).toBe(0);
  });

  it('keeps a pointer for an agent whose session a later agent resumed (resumed_from), when the pointer was lost', async () => {
    const root = join(dir, 'old');
    const sessions = new Sessions({ store: new FileStore(root) });
    const parked = await sessions.create({ agent_name: 'tf', purpose: 'p' });
    await sessions.update(parked.agent_id, { phase: 'approval' });
    await sessions.claudeAgentStopped({ agent_id: 'first', agent_type: 'tf', last_message: 'parked' });
    expect((await sessions.attachClaudeAgent({ agent_id: 'second', agent_type: 'tf' }))?.action).toBe('relinked');
    rmSync(join(root, CLAUDE_INDEX_DIR), { recursive: true });
    // The late event of the first agent: its session was handed on, nothing is made for it.
    expect((await sessions.claudeAgentStopped({ agent_id: 'first', agent_type: 'tf' }))?.action).toBe('superseded');
    expect(readFileSync(claudePointer(root, 'first'), 'utf8')).toBe(parked.agent_id);
    expect((await sessions.list()).length).toBe(1);
  });

  it("is completed by cleanup (the hourly cron), off the hooks' path", async () => {
    const { root, sessions } = await storeOf(10);
    rmSync(join(root, CLAUDE_INDEX_DIR), { recursive: true });
    rmSync(join(root, INDEX_DIR, 'complete.json'));
    await sessions.cleanup({ hours: 24 });
    expect(existsSync(join(root, CLAUDE_INDEX_DIR, 'complete.json'))).toBe(true);
    expect(existsSync(join(root, INDEX_DIR, 'complete.json'))).toBe(true);
    expect(await stateReads(() => sessions.attachClaudeAgent({ agent_id: 'c3', agent_type: 'new-type' }))).toBe(0);
  });

  it('a read-only lookup of a store without a root creates nothing', async () => {
    const root = join(dir, 'none');
    const sessions = new Sessions({ store: new FileStore(root) });
    expect(await sessions.findByClaudeAgent('a1')).toBeNull();
    expect(await sessions.newestOf('x')).toBeNull();
    expect(existsSync(root)).toBe(false);
  });
});

describe('sessions another program writes into a complete store (no pointers)', () => {
  it('are seen by the lookups once cleanup (the hourly cron) has given them their pointers', async () => {
    const { root, sessions } = await storeOf(10);
    const at = new Date();
    const foreign = withClaudeLink(
      newSession({ agent_id: 'foreign-1', agent_name: 'foreign', purpose: 'p' }, at),
      { agent_id: 'f1' },
      at,
    );
    mkdirSync(join(root, 'foreign-1'));
    writeFileSync(join(root, 'foreign-1', 'state.json'), `${JSON.stringify(foreign, null, 2)}\n`);
    // The known limit: the complete indexes do not know it yet.
    expect(await sessions.newestOf('foreign')).toBeNull();
    expect(await sessions.findByClaudeAgent('f1')).toBeNull();
    await sessions.cleanup({ hours: 24 });
    expect((await sessions.newestOf('foreign'))?.agent_id).toBe('foreign-1');
    expect((await sessions.findByClaudeAgent('f1'))?.agent_id).toBe('foreign-1');
    expect((await sessions.attachClaudeAgent({ agent_id: 'f1', agent_type: 'foreign' }))?.action).toBe('linked');
  });
});

describe('announced links (a writer killed between its pointer and its session)', () => {
  const at = new Date('2026-01-08T18:00:00.000Z');
  const session = (id: string): SessionState => newSession({ agent_id: id, agent_name: 'Explore', purpose: 'p' }, at);

  async function indexed(): Promise<{ root: string; store: FileStore }> {
    const root = join(dir, 'store');
    const store = new FileStore(root);
    for (const id of ['s1', 's2', 's3']) await store.create(session(id));
    await store.update('s1', (s) => withClaudeLink(s, { agent_id: 'linked', agent_type: 'Explore' }, at));
    expect(existsSync(join(root, CLAUDE_INDEX_DIR, 'complete.json'))).toBe(true);
    return { root, store };
  }

  it('an announcement whose session shows no link to the agent is not believed, and nothing is scanned', async () => {
    const { root, store } = await indexed();
    writeFileSync(claudePointer(root, 'killed'), 'pending s2');
    expect(await stateReads(async () => expect(await store.attachedTo(DEFAULT_PROJECT, 'killed')).toBeNull())).toBe(1);
    expect(await store.findByClaudeAgent(DEFAULT_PROJECT, 'killed')).toBeNull();
    // Announced for a session never created.
    writeFileSync(claudePointer(root, 'killed'), 'pending s9');
    expect(await store.attachedTo(DEFAULT_PROJECT, 'killed')).toBeNull();
  });

  it('an announcement that did not land falls back to the session the pointer named before', async () => {
    const { root, store } = await indexed();
    writeFileSync(claudePointer(root, 'linked'), 'pending s2 s1');
    expect((await store.attachedTo(DEFAULT_PROJECT, 'linked'))?.agent_id).toBe('s1');
    expect((await store.findByClaudeAgent(DEFAULT_PROJECT, 'linked'))?.agent_id).toBe('s1');
  });

  it('an announcement whose session was written is believed: linked to the agent, or resumed from it since', async () => {
    const { root, store } = await indexed();
    writeFileSync(claudePointer(root, 'linked'), 'pending s1');
    expect((await store.attachedTo(DEFAULT_PROJECT, 'linked'))?.agent_id).toBe('s1');
    await store.update('s1', (s) =>
      withClaudeLink(
        s,
        { agent_id: 'later', resumed_from: { phase: 'planning', last_active: at.toISOString(), agent_id: 'linked' } },
        at,
      ),
    );
    // The relink made the earlier agent's pointer plain; an announcement left by a lost rewrite still counts.
    expect(readFileSync(claudePointer(root, 'linked'), 'utf8')).toBe('s1');
    writeFileSync(claudePointer(root, 'linked'), 'pending s1');
    expect((await store.attachedTo(DEFAULT_PROJECT, 'linked'))?.claude?.agent_id).toBe('later');
  });

  it('a link is announced, flushed with its folder, before the session is written; made plain after', async () => {
    const { root, store } = await indexed();
    const recorded = recordWrites();
    try {
      await store.update('s2', (s) => withClaudeLink(s, { agent_id: 'fresh', agent_type: 'Explore' }, at));
    } finally {
      recorded.restore();
    }
    const events = recorded.events;
    const pointer = events.indexOf(`rename ${claudePointer(root, 'fresh')}`);
    const folder = events.indexOf(`fsync ${join(root, CLAUDE_INDEX_DIR)}`);
    const session = events.indexOf(`rename ${join(root, 's2', 'state.json')}`);
    expect(pointer).toBeGreaterThanOrEqual(0);
    expect([pointer < folder, folder < session]).toEqual([true, true]);
    expect(events.lastIndexOf(`rename ${claudePointer(root, 'fresh')}`)).toBeGreaterThan(session);
    expect(readFileSync(claudePointer(root, 'fresh'), 'utf8')).toBe('s2');
  });

  it('a link whose pointer cannot be written is not written either (E_IO): the index never misses a link', async () => {
    const { root, store } = await indexed();
    const eacces = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const real = fs.renameSync;
    const spy = jest.spyOn(fs, 'renameSync').mockImplementation(((from: string, to: string) => {
      if (String(to).startsWith(join(root, CLAUDE_INDEX_DIR))) throw eacces;
      (real as (a: string, b: string) => void)(from, to);
    }) as typeof fs.renameSync);
    try {
      expect(
        await codeOfAsync(() =>
          store.update('s2', (s) => withClaudeLink(s, { agent_id: 'blocked', agent_type: 'Explore' }, at)),
        ),
      ).toBe('E_IO');
    } finally {
      spy.mockRestore();
    }
    expect((await store.read('s2'))?.claude).toBeUndefined();
    expect(await store.attachedTo(DEFAULT_PROJECT, 'blocked')).toBeNull();
  });
});

describe('sweeping the Claude agent pointers', () => {
  const later = (): Date => new Date(Date.now() + 120_000);

  it('keeps a young pointer whose session does not exist yet (a link announced before its create)', async () => {
    const root = join(dir, 'store');
    const store = new FileStore(root);
    await store.create(newSession({ agent_id: 's1', agent_name: 'x', purpose: 'p' }, new Date()));
    await store.update('s1', (s) => withClaudeLink(s, { agent_id: 'a1' }, new Date()));
    writeFileSync(claudePointer(root, 'a-announced'), 'pending s-coming');
    expect(await store.maintenance.sweep(60_000, new Date())).toEqual([]);
    expect(existsSync(claudePointer(root, 'a-announced'))).toBe(true);
    expect(await store.maintenance.sweep(60_000, later())).toHaveLength(1);
    expect(existsSync(claudePointer(root, 'a-announced'))).toBe(false);
    expect(readdirSync(join(root, '.locks'))).toEqual([]);
  });

  it('points a swept pointer at another session still linked to its agent instead of removing it', async () => {
    const root = join(dir, 'store');
    const store = new FileStore(root);
    const at = (minute: number): Date => new Date(Date.parse('2026-01-08T18:00:00.000Z') + minute * 60_000);
    for (const id of ['s1', 's2'])
      await store.create(newSession({ agent_id: id, agent_name: 'x', purpose: 'p' }, at(0)));
    await store.update('s1', (s) => withClaudeLink(s, { agent_id: 'a1' }, at(1)));
    await store.update('s2', (s) => withClaudeLink(s, { agent_id: 'a1' }, at(2)));
    expect(readFileSync(claudePointer(root, 'a1'), 'utf8')).toBe('s2');
    await store.remove('s2');
    expect(await store.maintenance.sweep(60_000, later())).toEqual([]);
    expect(readFileSync(claudePointer(root, 'a1'), 'utf8')).toBe('s1');
    expect(
      await stateReads(async () => expect((await store.attachedTo(DEFAULT_PROJECT, 'a1'))?.agent_id).toBe('s1')),
    ).toBe(1);
  });
});

describe('agent names', () => {
  it('a lookup of a name without a pointer answers none from the complete index, reading no session', async () => {
    const { sessions, root } = await storeOf(20);
    expect(await stateReads(async () => expect(await sessions.newestOf('ghost')).toBeNull())).toBe(0);
    expect(existsSync(namePointer(root, 'ghost'))).toBe(false);
  });

  it('an announcement left by a killed writer is never trusted: the lookup scans and sets the pointer right', async () => {
    const { sessions, root } = await storeOf(20);
    const newest = await sessions.newestOf('parked-type');
    writeFileSync(namePointer(root, 'parked-type'), JSON.stringify({ agent_name: 'parked-type', pending: 'other' }));
    expect((await sessions.newestOf('parked-type'))?.agent_id).toBe(newest?.agent_id);
    expect(JSON.parse(readFileSync(namePointer(root, 'parked-type'), 'utf8')).agent_id).toBe(newest?.agent_id);
  });

  it('a write that fails puts the pointer back as it was (no announcement left to scan for)', async () => {
    const { sessions, root } = await storeOf(10);
    const parked = await sessions.newestOf('parked-type');
    const before = readFileSync(namePointer(root, 'parked-type'), 'utf8');
    const enospc = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    const real = fs.renameSync;
    const spy = jest.spyOn(fs, 'renameSync').mockImplementation(((from: string, to: string) => {
      if (basename(String(to)) === 'state.json') throw enospc;
      (real as (a: string, b: string) => void)(from, to);
    }) as typeof fs.renameSync);
    try {
      expect(await codeOfAsync(() => sessions.update(parked!.agent_id, { phase: 'planning' }))).toBe('E_IO');
    } finally {
      spy.mockRestore();
    }
    expect(readFileSync(namePointer(root, 'parked-type'), 'utf8')).toBe(before);
    expect(await stateReads(async () => expect((await sessions.newestOf('parked-type'))?.phase).toBe('approval'))).toBe(
      1,
    );
  });

  it("a name's first pointer is flushed with its folder before its session is created", async () => {
    const root = join(dir, 'store');
    const sessions = new Sessions({ store: new FileStore(root) });
    await sessions.create({ agent_name: 'first', purpose: 'p' });
    const recorded = recordWrites();
    let id: string;
    try {
      id = (await sessions.create({ agent_name: 'second', purpose: 'p' })).agent_id;
    } finally {
      recorded.restore();
    }
    const events = recorded.events;
    const pointer = events.indexOf(`rename ${namePointer(root, 'second')}`);
    const folder = events.indexOf(`fsync ${join(root, INDEX_DIR)}`);
    const session = events.indexOf(`rename ${join(root, id)}`);
    expect(pointer).toBeGreaterThanOrEqual(0);
    expect([pointer < folder, folder < session]).toEqual([true, true]);
  });
});
