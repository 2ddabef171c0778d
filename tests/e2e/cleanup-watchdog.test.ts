// Issue 42 item 4 through the built CLI: `cleanup` abandons a session left initializing by a running Claude agent idle
// past the resume timeout, except under Claude Code's unattended retry (CLAUDE_CODE_RETRY_WATCHDOG in its environment
// or in the `env` of Claude Code's settings), where that agent may be asleep through a usage limit; one that stopped
// is abandoned either way.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Sessions } from '../../src/service/sessions';
import { FileStore } from '../../src/store/file-store';
import { BIN, projectMaker, run, tempDir } from '../helpers';

const base = tempDir();
const project = projectMaker(base);

/** A project whose store holds a session left initializing by Claude agent `agent` (running, or stopped). */
async function withOrphan(stopped: boolean): Promise<{ cwd: string; home: string; id: string }> {
  const cwd = project();
  const home = join(cwd, 'home');
  mkdirSync(join(home, '.claude'), { recursive: true });
  const sessions = new Sessions({ store: new FileStore(join(cwd, '.claude', 'session')) });
  const state = await sessions.create({ agent_name: 'terraform-architect', purpose: 'claude_code_subagent' });
  await sessions.linkClaude(state.agent_id, { agent_id: 'a0123456789abcdef', ...(stopped ? { stopped: true } : {}) });
  await sessions.close();
  // Past a resume timeout of 0.001 minute (60 ms).
  await new Promise((wake) => setTimeout(wake, 150));
  return { cwd, home, id: state.agent_id };
}

function cleanup(cwd: string, home: string, env: Record<string, string | undefined> = {}) {
  const result = run(BIN.cli, ['cleanup', '--json'], {
    cwd,
    env: {
      HOME: home,
      CLAUDE_CONFIG_DIR: undefined,
      CLAUDE_CODE_RETRY_WATCHDOG: undefined,
      AGENT_SESSION_RESUME_TIMEOUT_MINUTES: '0.001',
      ...env,
    },
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as { abandoned: string[] };
}

describe('cleanup under Claude Code’s unattended retry (issue 42 item 4)', () => {
  it('without it: a running agent’s session idle past the resume timeout is abandoned (as before)', async () => {
    const { cwd, home, id } = await withOrphan(false);
    expect(cleanup(cwd, home).abandoned).toEqual([id]);
  });

  it.each([
    ['in cleanup’s environment', (_cwd: string, _home: string) => ({ CLAUDE_CODE_RETRY_WATCHDOG: '1' })],
    [
      'in the project’s Claude Code settings',
      (cwd: string) => {
        writeFileSync(
          join(cwd, '.claude', 'settings.local.json'),
          JSON.stringify({ env: { CLAUDE_CODE_RETRY_WATCHDOG: '1' } }),
        );
        return {};
      },
    ],
    [
      'in the user’s Claude Code settings',
      (_cwd: string, home: string) => {
        writeFileSync(
          join(home, '.claude', 'settings.json'),
          JSON.stringify({ env: { CLAUDE_CODE_RETRY_WATCHDOG: 'true' } }),
        );
        return {};
      },
    ],
  ])('on %s: kept, its agent may be asleep through a usage limit', async (_where, set) => {
    const { cwd, home } = await withOrphan(false);
    expect(cleanup(cwd, home, set(cwd, home)).abandoned).toEqual([]);
  });

  it('on, and the agent stopped: abandoned all the same', async () => {
    const { cwd, home, id } = await withOrphan(true);
    expect(cleanup(cwd, home, { CLAUDE_CODE_RETRY_WATCHDOG: '1' }).abandoned).toEqual([id]);
  });
});
