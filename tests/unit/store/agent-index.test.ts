import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INDEX_DIR } from '../../../src/store/agent-index';
import { FileStore } from '../../../src/store/file-store';
import { Sessions } from '../../../src/service/sessions';

let dir: string;
let root: string;
let clock: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  root = join(dir, 'session');
  clock = Date.parse('2026-01-08T18:00:00.000Z');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A service on the store with a clock that moves one second per call; each call is "another process". */
function open(): Sessions {
  return new Sessions({ store: new FileStore(root, { now: () => new Date((clock += 1000)) }) });
}

function pointerFile(agentName: string): string {
  return join(root, INDEX_DIR, `${Buffer.from(agentName, 'utf8').toString('hex')}.json`);
}

/** The answer of a full scan, the reference the pointer must always agree with. */
async function scanned(agentName: string): Promise<string | null> {
  const entries = (await new FileStore(root).list()).filter(
    (e) => e.kind === 'valid' && e.state.agent_name === agentName,
  );
  let best: { id: string; at: number; created: number } | null = null;
  for (const entry of entries) {
    if (entry.kind !== 'valid') continue;
    const at = Date.parse(entry.state.last_updated);
    const created = Date.parse(entry.state.created_at);
    if (best === null || at > best.at || (at === best.at && created > best.created))
      best = { id: entry.id, at, created };
  }
  return best?.id ?? null;
}

describe('agent index (per-agent pointer)', () => {
  it('points at the newest session after creates and updates', async () => {
    const a = await open().create({ agent_name: 'arch', purpose: 'p', id: 'a1' });
    const b = await open().create({ agent_name: 'arch', purpose: 'p', id: 'b1' });
    expect((await open().newestOf('arch'))?.agent_id).toBe(b.agent_id);
    await open().update(a.agent_id, { phase: 'planning' });
    expect(JSON.parse(readFileSync(pointerFile('arch'), 'utf8')).agent_id).toBe('a1');
    expect((await open().newestOf('arch'))?.agent_id).toBe('a1');
    expect(await scanned('arch')).toBe('a1');
  });

  it('answers from the pointer without listing the store', async () => {
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'a1' });
    // The create found no pointer and set one from a scan under the pointer lock (see writing()).
    expect(JSON.parse(readFileSync(pointerFile('arch'), 'utf8')).agent_id).toBe('a1');
    const store = new FileStore(root);
    store.list = () => {
      throw new Error('listed');
    };
    expect((await new Sessions({ store }).newestOf('arch'))?.agent_id).toBe('a1');
  });

  it('falls back to the folders when the pointed session was deleted', async () => {
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'old' });
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'new' });
    rmSync(join(root, 'new'), { recursive: true });
    expect((await open().newestOf('arch'))?.agent_id).toBe('old');
    expect(JSON.parse(readFileSync(pointerFile('arch'), 'utf8')).agent_id).toBe('old');
    await open().delete('old');
    expect(await open().newestOf('arch')).toBeNull();
  });

  it.each([
    ['garbage', 'not json {'],
    ['empty', ''],
    ['an array', '[1,2]'],
    [
      'another agent',
      JSON.stringify({ agent_name: 'other', agent_id: 'old', last_updated: '2026-01-08T18:00:01.000Z' }),
    ],
    [
      'a traversal id',
      JSON.stringify({ agent_name: 'arch', agent_id: '../x', last_updated: '2026-01-08T18:00:01.000Z' }),
    ],
    [
      'a stale timestamp',
      JSON.stringify({ agent_name: 'arch', agent_id: 'old', last_updated: '2020-01-01T00:00:00.000Z' }),
    ],
    ['a false "none"', JSON.stringify({ agent_name: 'arch', agent_id: 'gone', last_updated: null })],
  ])('ignores a corrupt pointer file (%s) and rebuilds it', async (_label, text) => {
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'old' });
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'new' });
    writeFileSync(pointerFile('arch'), text);
    expect((await open().newestOf('arch'))?.agent_id).toBe('new');
    expect(JSON.parse(readFileSync(pointerFile('arch'), 'utf8'))).toMatchObject({
      agent_name: 'arch',
      agent_id: 'new',
    });
  });

  it('does not trust a pointer to a session of another agent', async () => {
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'mine' });
    await open().create({ agent_name: 'other', purpose: 'p', id: 'theirs' });
    const theirs = JSON.parse(readFileSync(join(root, 'theirs', 'state.json'), 'utf8'));
    writeFileSync(
      pointerFile('arch'),
      JSON.stringify({ agent_name: 'arch', agent_id: 'theirs', last_updated: theirs.last_updated }),
    );
    expect((await open().newestOf('arch'))?.agent_id).toBe('mine');
  });

  it('does not trust a pointer to a corrupt session', async () => {
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'old' });
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'new' });
    writeFileSync(join(root, 'new', 'state.json'), '{"broken":');
    expect((await open().newestOf('arch'))?.agent_id).toBe('old');
  });

  it('sees a newer session created by another process', async () => {
    const first = open();
    await first.create({ agent_name: 'arch', purpose: 'p', id: 'one' });
    expect((await first.newestOf('arch'))?.agent_id).toBe('one');
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'two' });
    expect((await first.newestOf('arch'))?.agent_id).toBe('two');
    await open().update('one', { phase: 'approval' });
    expect((await first.newestOf('arch'))?.agent_id).toBe('one');
  });

  it('keeps the newer session when a write carries an older timestamp (clock went back)', async () => {
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'a' });
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'b' });
    clock -= 60_000;
    await open().update('a', { phase: 'planning' });
    expect((await open().newestOf('arch'))?.agent_id).toBe(await scanned('arch'));
    expect(await scanned('arch')).toBe('b');
  });

  it('records no pointer for "no session" and sets one on create', async () => {
    await open().create({ agent_name: 'other', purpose: 'p', id: 'x' });
    expect(await open().newestOf('arch')).toBeNull();
    // No "none" pointer: only writes of real sessions set pointers (a lookup of any name must not add a file).
    expect(existsSync(pointerFile('arch'))).toBe(false);
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'y' });
    expect((await open().newestOf('arch'))?.agent_id).toBe('y');
  });

  it('creates nothing when the store does not exist', async () => {
    expect(await open().newestOf('arch')).toBeNull();
    expect(existsSync(root)).toBe(false);
  });

  it('scans, without a pointer, for a name too long to be a file name', async () => {
    const name = 'n'.repeat(200); // over the pointer's 100 bytes, within the naming rule's 256 characters
    await open().create({ agent_name: name, purpose: 'p', id: 'long' });
    expect((await open().newestOf(name))?.agent_id).toBe('long');
    expect(existsSync(join(root, INDEX_DIR)) ? readdirSync(join(root, INDEX_DIR)) : []).toEqual([]);
  });

  it('is not listed, swept or cleaned as a session', async () => {
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'a1' });
    expect((await open().list()).map((e) => e.id)).toEqual(['a1']);
    clock += 48 * 3_600_000;
    expect((await open().cleanup({ hours: 24 })).removed).toEqual(['a1']);
    expect(existsSync(join(root, INDEX_DIR))).toBe(true);
    expect(await open().newestOf('arch')).toBeNull();
  });

  it('has leftovers of killed writers swept like a session folder', async () => {
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'a1' });
    const leftover = join(root, INDEX_DIR, `${Buffer.from('arch').toString('hex')}.json.123.deadbeef.tmp`);
    writeFileSync(leftover, '{');
    expect(await new FileStore(root).maintenance.sweep(60_000, new Date(Date.now() + 120_000))).toHaveLength(1);
    expect(existsSync(leftover)).toBe(false);
    expect((await open().newestOf('arch'))?.agent_id).toBe('a1');
  });

  it('agrees with a scan after many interleaved writes from separate store instances', async () => {
    const names = ['a', 'b', 'c'];
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const name = names[i % 3]!;
      if (i % 4 === 0 || ids.length < 3)
        ids.push((await open().create({ agent_name: name, purpose: 'p', id: `s${i}` })).agent_id);
      else await open().update(ids[(i * 7) % ids.length]!, { metadata: { i } });
      if (i % 5 === 0) clock -= 1500; // an unsteady clock
      if (i % 9 === 0) await open().delete(ids.splice(i % ids.length, 1)[0]!);
      for (const n of names) expect((await open().newestOf(n))?.agent_id ?? null).toBe(await scanned(n));
    }
  });
});

describe('lookups of names without sessions', () => {
  it('write no pointer per name (the store does not grow), and a later create is still found', async () => {
    await open().create({ agent_name: 'arch', purpose: 'p', id: 'a1' });
    const before = readdirSync(join(root, INDEX_DIR)).sort();
    for (const name of ['ghost', 'ghost2', '$(x)', 'a'.repeat(90)]) expect(await open().newestOf(name)).toBeNull();
    expect(readdirSync(join(root, INDEX_DIR)).sort()).toEqual(before);
    await open().create({ agent_name: 'ghost', purpose: 'p', id: 'g1' });
    expect((await open().newestOf('ghost'))?.agent_id).toBe('g1');
    expect(JSON.parse(readFileSync(pointerFile('ghost'), 'utf8')).agent_id).toBe('g1');
  });
});
