import { handleEvent } from '../../../../src/hooks/answer';
import { claudeCode } from '../../../../src/hooks/hosts/claude-code';
import type { Sessions } from '../../../../src/service/sessions';
import { memorySessions } from '../../../support/sessions';

const CLI = ['/usr/bin/node', '/opt/as/dist/agent-session.cjs', '--dir', '/p/.claude/session'];
const HEAD = CLI.join(' ');
const ALLOW = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } };

let sessions: Sessions;
beforeEach(() => {
  ({ sessions } = memorySessions());
});

/** A sub-agent `claudeAgent` of type `type`, started: its session, linked to it. */
async function started(claudeAgent: string, type = 'terraform-architect'): Promise<string> {
  const attached = await sessions.attachClaudeAgent({ agent_id: claudeAgent, agent_type: type });
  return attached!.state.agent_id;
}

const request = (command: unknown, extra: Record<string, unknown> = {}) => ({
  hook_event_name: 'PermissionRequest',
  agent_id: 'a1111111111111111',
  agent_type: 'terraform-architect',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command, description: 'Record the session phase' },
  ...extra,
});

const answer = async (payload: Record<string, unknown>) =>
  (await handleEvent(sessions, payload, { cli: CLI, now: new Date(), words: claudeCode.words })).answer;

describe('PermissionRequest', () => {
  it("allows a sub-agent's own recording command", async () => {
    const id = await started('a1111111111111111');
    expect(await answer(request(`${HEAD} update ${id} --phase approval --metadata '{"plan":"x"}'`))).toEqual(ALLOW);
  });

  it("never allows recording into another agent's session", async () => {
    await started('a1111111111111111');
    const other = await started('a2222222222222222', 'reviewer');
    expect(await answer(request(`${HEAD} update ${other} --phase approval`))).toBeNull();
  });

  it('never allows it for an agent without a session, nor for the main agent', async () => {
    const id = await started('a2222222222222222');
    expect(await answer(request(`${HEAD} update ${id} --phase approval`))).toBeNull();
    const { agent_id: _drop, ...mainAgent } = request(`${HEAD} update ${id} --phase approval`);
    expect(await answer(mainAgent)).toBeNull();
  });

  it('never allows it once the agent stopped, or the session moved on to another agent', async () => {
    const id = await started('a1111111111111111');
    await sessions.update(id, { phase: 'approval' });
    await sessions.claudeAgentStopped({ agent_id: 'a1111111111111111', agent_type: 'terraform-architect' });
    expect(await answer(request(`${HEAD} update ${id} --phase executing`))).toBeNull();
    // The next delegation resumes it: only the new agent may record now.
    expect(await started('a3333333333333333')).toBe(id);
    expect(await answer(request(`${HEAD} update ${id} --phase executing`))).toBeNull();
    expect(await answer(request(`${HEAD} update ${id} --phase executing`, { agent_id: 'a3333333333333333' }))).toEqual(
      ALLOW,
    );
  });

  it.each([
    ['a chained command', (id: string) => `${HEAD} update ${id} --phase approval && rm -rf ~`],
    ['another verb', (id: string) => `${HEAD} approve ${id} --by alice`],
    ['another store', (id: string) => `${HEAD.replace('/p/', '/q/')} update ${id} --phase approval`],
    ['metadata from a file', (id: string) => `${HEAD} update ${id} --metadata @/etc/passwd`],
  ])('never allows %s', async (_what, command) => {
    const id = await started('a1111111111111111');
    expect(await answer(request(command(id)))).toBeNull();
  });

  it('leaves other tools and odd inputs alone', async () => {
    const id = await started('a1111111111111111');
    const command = `${HEAD} update ${id} --phase approval`;
    expect(await answer(request(command, { tool_name: 'Write' }))).toBeNull();
    expect(await answer(request(undefined))).toBeNull();
    expect(await answer(request(42))).toBeNull();
    expect(await answer({ ...request(command), tool_input: command })).toBeNull();
  });
});
