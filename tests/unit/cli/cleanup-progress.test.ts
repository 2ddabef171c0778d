import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { newSession } from '../../../src/core/session';
import { FileStore } from '../../../src/store/file-store';

// Issue 45: cleanup of many stale sessions tells its progress on a terminal's stderr (only there), and a long output
// ends with the figures again.
let dir: string;
let store: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-progress-'));
  store = join(dir, 'store');
  const files = new FileStore(store, { home: null });
  const old = new Date(Date.now() - 72 * 3_600_000);
  for (let n = 0; n < 25; n++) {
    const id = `agent-20260101-000000-${(0x10000000 + n).toString(16)}`;
    await files.create(newSession({ agent_id: id, agent_name: 'a', purpose: 'p', project: 'p1' }, old));
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function cleanup(
  args: readonly string[],
  errIsTTY: boolean,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(
    ['cleanup', '--all-projects', ...args],
    {
      out: (text) => (out += text),
      err: (text) => (err += text),
      env: { AGENT_SESSION_DIR: store },
      cwd: dir,
      now: () => new Date(),
      errIsTTY,
      negative: false,
    },
    '0.0.0',
  );
  return { code, out, err };
}

it.each([
  ['--dry-run', 'Checked', 'would remove'],
  ['', 'Removed', 'removed'],
])(
  'cleanup %s on a terminal: a progress line rewritten in place and cleared, a summary last',
  async (flag, verb, summary) => {
    const result = await cleanup(flag === '' ? [] : [flag], true);
    expect(result.code).toBe(0);
    expect(result.err).toContain(`\r${verb} 25 of 25 stale sessions…`);
    expect(result.err.endsWith('\r\u001b[K')).toBe(true);
    expect(result.out.trimEnd().split('\n').at(-1)).toBe(`In all: ${summary} 25 sessions`);
  },
);

it('cleanup to a pipe or a log shows no progress', async () => {
  const result = await cleanup(['--dry-run'], false);
  expect({ code: result.code, err: result.err }).toEqual({ code: 0, err: '' });
  expect(result.out).toContain('Would remove 25 sessions idle for more than 24h:');
});
