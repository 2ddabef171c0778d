// Issue 10 item 17: the seed `pre-delegate` answer is capped (ANSWER_LIMIT), as the Claude Code answers are.
// 50 MB of metadata gave a 52 MB stdout line; now the line stays under 64 KiB and says what it left out.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'agent-session.cjs');
const PRE = join(ROOT, 'dist', 'pre-delegate.cjs');
const LIMIT = 64 * 1024;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(bin: string, args: readonly string[], input = ''): SpawnSyncReturns<string> {
  const env = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: '',
    AGENT_SESSION_DIR: join(dir, 'store'),
    AGENT_SESSION_LOG_DIR: join(dir, 'logs'),
    AGENT_SESSION_CONFIG: '',
  };
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    env,
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** A resumable session whose state.json is edited to hold `metadata` (too big for a command line). */
function sessionWith(metadata: Record<string, unknown>, extraHistory = 0): string {
  const id = run(CLI, ['create', '--agent', 'big', '--purpose', 'p']).stdout.trim();
  for (let i = 0; i < extraHistory; i++) {
    expect(run(CLI, ['update', id, '--phase', i % 2 === 0 ? 'planning' : 'investigating']).status).toBe(0);
  }
  expect(run(CLI, ['update', id, '--phase', 'planning']).status).toBe(0);
  const file = join(dir, 'store', id, 'state.json');
  const state = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...state, metadata }));
  return id;
}

describe('the pre-delegate answer cap', () => {
  it('20 MB of metadata: one line under 64 KiB, small keys kept whole, the big one left out and counted', () => {
    const id = sessionWith({ plan: 'step 1', blob: 'x'.repeat(20 * 1024 * 1024), after: { n: 1 } });
    const result = run(PRE, [], JSON.stringify({ agent_name: 'big', agent_id: id }));
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(Buffer.byteLength(lines[0]!)).toBeLessThanOrEqual(LIMIT);
    const answer = JSON.parse(lines[0]!);
    expect(answer).toMatchObject({ should_resume: true, agent_id: id });
    expect(answer.resume_metadata.metadata).toEqual({ plan: 'step 1', after: { n: 1 } });
    expect(answer.resume_metadata.truncated).toEqual({
      limit_bytes: LIMIT,
      metadata_keys_dropped: 1,
      history_entries_dropped: 0,
    });
    expect(answer.resume_metadata.history.length).toBeGreaterThan(0);
  });

  it('many mid-sized keys and a long history: as many as fit, newest history kept, still under the limit', () => {
    const metadata = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v'.repeat(4000)]));
    const id = sessionWith(metadata, 6);
    const answer = JSON.parse(run(PRE, [], JSON.stringify({ agent_name: 'big', agent_id: id })).stdout);
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThanOrEqual(LIMIT);
    const kept = Object.keys(answer.resume_metadata.metadata);
    expect(kept.length).toBeGreaterThan(10);
    expect(answer.resume_metadata.truncated.metadata_keys_dropped).toBe(40 - kept.length);
    expect(answer.resume_metadata.history.at(-1)).toMatchObject({ to_phase: 'planning' });
  });

  it('an answer under the limit is unchanged: no marker', () => {
    const id = sessionWith({ plan: 'step 1' });
    const answer = JSON.parse(run(PRE, [], JSON.stringify({ agent_name: 'big', agent_id: id })).stdout);
    expect(answer.resume_metadata).not.toHaveProperty('truncated');
    expect(answer.resume_metadata.metadata).toEqual({ plan: 'step 1' });
  });
});
