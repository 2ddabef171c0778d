import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveCall } from '../app/call';
import { openSessions } from '../app/stores';
import { DEFAULT_CONFIG } from '../core/config';
import { preDelegate, subagentStop } from './seed/seed-protocol';

/**
 * The seed's `pre-delegate --test`: the whole flow in a temporary store that is removed afterwards.
 * @returns true when every check passed
 */
export async function runSelfTest(print: (line: string) => void): Promise<boolean> {
  // node:os on this path only: every hook call loads this module, and node:os costs ~1 M instructions to load. A
  // `require`: the bins run their bundle in a vm.Script, where a dynamic import() has no loader.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { tmpdir } = require('node:os') as typeof import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'agent-session-selftest-'));
  let passed = true;
  const check = (label: string, ok: boolean): void => {
    print(`  ${ok ? 'ok' : 'FAILED'}: ${label}`);
    passed &&= ok;
  };
  try {
    const sessions = openSessions(
      resolveCall({ dir: join(dir, 'session'), env: {}, cwd: dir, overrides: DEFAULT_CONFIG }),
    );
    try {
      print('');
      print('=== Pre-Delegate Hook Test ===');
      print('');
      print('Test 1: No agent_id (should create new session)');
      const first = await preDelegate(sessions, { agent_name: 'self-test-agent', task_id: 'T001' });
      print(`  should_resume: ${first.should_resume}`);
      print(`  reason: ${first.reason}`);
      check('no session to resume', !first.should_resume && first.reason === 'no_existing_session');
      print('');
      print('Test 2: With agent_id (check if resumable)');
      const created = await sessions.create({
        agent_name: 'self-test-agent',
        purpose: 'approval_workflow',
        metadata: { task_id: 'T001' },
      });
      print(`  Created test session: ${created.agent_id}`);
      await sessions.update(created.agent_id, { phase: 'planning' });
      await sessions.update(created.agent_id, { phase: 'approval' });
      print('  Updated to approval phase');
      const second = await preDelegate(sessions, { agent_name: 'self-test-agent', agent_id: created.agent_id });
      print(`  should_resume: ${second.should_resume}`);
      print(`  reason: ${second.reason}`);
      print(`  previous_phase: ${second.resume_metadata?.previous_phase ?? '-'}`);
      check(
        'session resumable in approval',
        second.should_resume && second.resume_metadata?.previous_phase === 'approval',
      );
      const byName = await preDelegate(sessions, { agent_name: 'self-test-agent' });
      check('found by agent name', byName.should_resume && byName.agent_id === created.agent_id);
      print('');
      print('Test 3: Subagent stop (finalize)');
      const stopped = await subagentStop(sessions, { task_info: { agent_id: created.agent_id }, exit_code: 0 });
      print(`  finalized: ${stopped.finalized}${stopped.finalized ? ` (${stopped.outcome})` : ` (${stopped.reason})`}`);
      const after = await preDelegate(sessions, { agent_id: created.agent_id });
      print(`  should_resume afterwards: ${after.should_resume} (${after.reason})`);
      check(
        'finalized and no longer resumable',
        stopped.finalized && !after.should_resume && after.reason === 'phase_not_resumable',
      );
      print('');
      print(passed ? '=== Test Complete: all checks passed ===' : '=== Test FAILED ===');
      print('');
    } finally {
      await sessions.close();
    }
  } catch (error) {
    print(`  FAILED: ${(error as Error).message}`);
    passed = false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return passed;
}
