import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sessions } from '../../../src/service/sessions';
import { FileStore } from '../../../src/store/file-store';

let dir: string;
let clock: Date;
let sessions: Sessions;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  clock = new Date('2026-01-08T18:00:00.000Z');
  sessions = new Sessions({ store: new FileStore(dir, { now: () => clock }) });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('per-agent pointer under writes that do not move time forward', () => {
  it('an imported older session never becomes the newest, whatever the pointer held', async () => {
    const old = await sessions.create({ agent_name: 'bob', purpose: 'p', id: 'a1' });
    await sessions.update(old.agent_id, { phase: 'planning' });
    const exported = await sessions.get('a1');
    await sessions.delete('a1');
    advance(60_000);
    await sessions.create({ agent_name: 'bob', purpose: 'p', id: 'c1' });
    await sessions.update('c1', { phase: 'approval' });
    advance(60_000);
    await sessions.create({ agent_name: 'bob', purpose: 'p', id: 'b1' });
    await sessions.delete('b1'); // the pointer now names a session that is gone
    await sessions.importSession(exported);
    expect((await sessions.newestOf('bob'))?.agent_id).toBe('c1');
    rmSync(join(dir, '.agents'), { recursive: true, force: true }); // "always safe"
    await sessions.importSession(exported, { newId: true });
    expect((await sessions.newestOf('bob'))?.agent_id).toBe('c1');
  });
});

describe('a damaged index folder', () => {
  it('never blocks writes, never fakes a duplicate, and lookups scan', async () => {
    await sessions.create({ agent_name: 'bob', purpose: 'p', id: 's1' });
    rmSync(join(dir, '.agents'), { recursive: true, force: true });
    writeFileSync(join(dir, '.agents'), 'not a folder');
    expect((await sessions.update('s1', { phase: 'planning' })).phase).toBe('planning');
    expect((await sessions.create({ agent_name: 'bob', purpose: 'p', id: 's2' })).agent_id).toBe('s2');
    advance(1000);
    await sessions.update('s1', { phase: 'approval' });
    expect((await sessions.newestOf('bob'))?.agent_id).toBe('s1');
  });
});

describe('import', () => {
  it('drops a Claude Code link, so a copy never claims the original agent', async () => {
    const state = await sessions.create({ agent_name: 'tf', purpose: 'p', id: 'orig' });
    const linked = await sessions.linkClaude(state.agent_id, { agent_id: 'c1', agent_type: 'tf' });
    expect(linked.claude?.agent_id).toBe('c1');
    const copy = await sessions.importSession(linked, { newId: true });
    expect(copy.claude).toBeUndefined();
    expect((await sessions.findByClaudeAgent('c1'))?.agent_id).toBe('orig');
  });
});
