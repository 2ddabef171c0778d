import { DEFAULT_PROJECT } from '../../../src/core/project';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClaudeLink } from '../../../src/core/claude-link';
import { newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';
import { CLAUDE_INDEX_DIR } from '../../../src/store/claude-index';
import { FileStore } from '../../../src/store/file-store';

let dir: string;
let store: FileStore;
const now = new Date('2026-01-08T18:00:00.000Z');
const session = (id: string): SessionState => newSession({ agent_id: id, agent_name: 'Explore', purpose: 'p' }, now);
const link = (id: string, agent: string) =>
  store.update(id, (s) => withClaudeLink(s, { agent_id: agent, agent_type: 'Explore' }, now));
/** The pointer files (named by the hex of a Claude agent id; the folder also holds its marker, complete.json). */
const pointers = () =>
  existsSync(join(dir, CLAUDE_INDEX_DIR))
    ? readdirSync(join(dir, CLAUDE_INDEX_DIR)).filter((name) => /^[0-9a-f]+$/.test(name))
    : [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  store = new FileStore(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Claude agent pointers', () => {
  it('a link writes a pointer, and the lookup follows it', async () => {
    await store.create(session('s1'));
    await store.create(session('s2'));
    await link('s2', 'a111');
    expect(pointers()).toEqual([Buffer.from('a111').toString('hex')]);
    expect((await store.findByClaudeAgent(DEFAULT_PROJECT, 'a111'))?.agent_id).toBe('s2');
  });

  it('never trusts a pointer whose session is linked to another agent now, or is gone', async () => {
    await store.create(session('s1'));
    await store.create(session('s2'));
    await link('s1', 'a111');
    await link('s1', 'a222'); // relinked: the a111 pointer still names s1
    expect(await store.findByClaudeAgent(DEFAULT_PROJECT, 'a111')).toBeNull();
    expect((await store.findByClaudeAgent(DEFAULT_PROJECT, 'a222'))?.agent_id).toBe('s1');
    // A pointer planted at the wrong session is not believed either.
    writeFileSync(join(dir, CLAUDE_INDEX_DIR, Buffer.from('a222').toString('hex')), 's2');
    expect((await store.findByClaudeAgent(DEFAULT_PROJECT, 'a222'))?.agent_id).toBe('s1');
    await store.remove('s1');
    expect(await store.findByClaudeAgent(DEFAULT_PROJECT, 'a222')).toBeNull();
  });

  it('finds a link without any pointer (a scan), e.g. after the pointer folder was removed', async () => {
    await store.create(session('s1'));
    await link('s1', 'a333');
    rmSync(join(dir, CLAUDE_INDEX_DIR), { recursive: true });
    expect((await store.findByClaudeAgent(DEFAULT_PROJECT, 'a333'))?.agent_id).toBe('s1');
    expect(pointers()).toEqual([Buffer.from('a333').toString('hex')]); // repaired by the scan
    expect(await store.findByClaudeAgent(DEFAULT_PROJECT, 'unknown')).toBeNull();
  });

  it('sweep removes pointers to removed sessions and keeps live ones', async () => {
    await store.create(session('s1'));
    await store.create(session('s2'));
    await link('s1', 'a1');
    await link('s2', 'a2');
    await store.remove('s1');
    // Judged a minute later: a young pointer may be a link announced before its session exists (kept, see below).
    expect(await store.maintenance.sweep(60_000, new Date(Date.now() + 120_000))).toHaveLength(1);
    expect(pointers()).toEqual([Buffer.from('a2').toString('hex')]);
    expect((await store.findByClaudeAgent(DEFAULT_PROJECT, 'a2'))?.agent_id).toBe('s2');
  });

  it('the listing ignores the pointer folder', async () => {
    await store.create(session('s1'));
    await link('s1', 'a1');
    expect((await store.list()).map((entry) => entry.id)).toEqual(['s1']);
  });
});
