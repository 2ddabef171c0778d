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
  sessions = new Sessions({ store: new FileStore(dir), now: () => clock });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('per-agent pointer under writes that do not move time forward', () => {
  it('an imported older session never becomes the newest, whatever the pointer held', () => {
    const old = sessions.create({ agent_name: 'bob', purpose: 'p', id: 'a1' });
    sessions.update(old.agent_id, { phase: 'planning' });
    const exported = sessions.get('a1');
    sessions.delete('a1');
    advance(60_000);
    sessions.create({ agent_name: 'bob', purpose: 'p', id: 'c1' });
    sessions.update('c1', { phase: 'approval' });
    advance(60_000);
    sessions.create({ agent_name: 'bob', purpose: 'p', id: 'b1' });
    sessions.delete('b1'); // the pointer now names a session that is gone
    sessions.importSession(exported);
    expect(sessions.newestOf('bob')?.agent_id).toBe('c1');
    rmSync(join(dir, '.agents'), { recursive: true, force: true }); // "always safe"
    sessions.importSession(exported, { newId: true });
    expect(sessions.newestOf('bob')?.agent_id).toBe('c1');
  });
});

describe('a damaged index folder', () => {
  it('never blocks writes, never fakes a duplicate, and lookups scan', () => {
    sessions.create({ agent_name: 'bob', purpose: 'p', id: 's1' });
    rmSync(join(dir, '.agents'), { recursive: true, force: true });
    writeFileSync(join(dir, '.agents'), 'not a folder');
    expect(sessions.update('s1', { phase: 'planning' }).phase).toBe('planning');
    expect(sessions.create({ agent_name: 'bob', purpose: 'p', id: 's2' }).agent_id).toBe('s2');
    advance(1000);
    sessions.update('s1', { phase: 'approval' });
    expect(sessions.newestOf('bob')?.agent_id).toBe('s1');
  });
});

describe('import', () => {
  it('drops a Claude Code link, so a copy never claims the original agent', () => {
    const state = sessions.create({ agent_name: 'tf', purpose: 'p', id: 'orig' });
    const linked = sessions.linkClaude(state.agent_id, { agent_id: 'c1', agent_type: 'tf' });
    expect(linked.claude?.agent_id).toBe('c1');
    const copy = sessions.importSession(linked, { newId: true });
    expect(copy.claude).toBeUndefined();
    expect(sessions.findByClaudeAgent('c1')?.agent_id).toBe('orig');
  });
});
