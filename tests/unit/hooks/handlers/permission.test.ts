import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('PermissionRequest nobody can answer (the permission inbox)', () => {
  const BG = 'a1111111111111111';
  const NEXT = 'a4444444444444444';
  let project: string;
  let launch: Record<string, string>;

  /** A Claude Code project folder with the meta file Claude Code writes for the sub-agent `agentId`. */
  function claudeProject(agentId: string, meta: Record<string, unknown>): Record<string, string> {
    // `requestNonInteractive` is true in interactive sessions too (2.1.332): it decides nothing, whatever it says.
    const home = mkdtempSync(join(tmpdir(), 'as-perm-'));
    const cwd = join(home, 'proj');
    mkdirSync(cwd);
    const session = '11111111-2222-3333-4444-555555555555';
    const projectDir = join(home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(join(projectDir, session, 'subagents'), { recursive: true });
    const { entrypoint, ...metaFields } = meta;
    writeFileSync(join(projectDir, session, 'subagents', `agent-${agentId}.meta.json`), JSON.stringify(metaFields));
    // The transcript's first row, as Claude Code writes it (its `entrypoint`: `cli` interactive, `sdk-cli` for -p).
    if (entrypoint !== undefined)
      writeFileSync(
        join(projectDir, session, 'subagents', `agent-${agentId}.jsonl`),
        `${JSON.stringify({ type: 'user', agentId, isSidechain: true, entrypoint })}\n{"type":"assistant"}\n`,
      );
    return { cwd, session_id: session, transcript_path: join(projectDir, `${session}.jsonl`) };
  }

  const touch = (extra: Record<string, unknown> = {}) => ({
    ...request('touch PERM-FILE', launch),
    tool_input: { command: 'touch PERM-FILE', description: 'scripted command' },
    ...extra,
  });
  const DENY = expect.objectContaining({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: expect.any(String) },
    },
  });

  beforeEach(() => {
    // A background sub-agent of `claude -p` (its transcript's entrypoint `sdk-cli`): nobody can answer it.
    launch = claudeProject(BG, {
      agentType: 'terraform-architect',
      requestShape: 'background',
      requestNonInteractive: true,
      entrypoint: 'sdk-cli',
    });
    project = launch.cwd!;
  });
  afterEach(() => rmSync(join(project, '..'), { recursive: true, force: true }));

  it('parks a background sub-agent request, grants it once after approve, to the agent that resumes the session', async () => {
    const id = await started(BG);
    await sessions.update(id, { phase: 'executing' });
    const denied = await answer(touch());
    expect(denied).toEqual(DENY);
    const message = (denied as { hookSpecificOutput: { decision: { message: string } } }).hookSpecificOutput.decision
      .message;
    expect(message).toContain(`approve ${id}`);
    expect(message).toContain('touch PERM-FILE');
    const parked = await sessions.get(id);
    expect(parked.phase).toBe('approval');
    expect(parked.permission_requests).toHaveLength(1);
    // Not yet approved: the same call again is parked again (nothing new recorded), never allowed.
    expect(await answer(touch())).toEqual(DENY);
    expect((await sessions.get(id)).permission_requests).toHaveLength(1);
    await sessions.claudeAgentStopped({ agent_id: BG, agent_type: 'terraform-architect' });
    await sessions.approve(id);
    // The next delegation resumes the session with a new Claude agent.
    expect(await started(NEXT)).toBe(id);
    const next = { ...launch, agent_id: NEXT };
    expect(
      await answer(touch({ ...next, tool_input: { description: 'scripted command', command: 'touch OTHER' } })),
    ).toBeNull();
    expect(
      await answer(touch({ ...next, tool_input: { description: 'scripted command', command: 'touch PERM-FILE' } })),
    ).toEqual(ALLOW);
    const spent = (await sessions.get(id)).permission_requests!.at(-1)!;
    expect(spent).toMatchObject({ status: 'spent', spent_by: NEXT });
    // A second use of the grant: not allowed (no meta file for this agent, so nothing is parked either).
    expect(await answer(touch(next))).toBeNull();
  });

  it('never allows the grant to the agent of another session', async () => {
    const id = await started(BG);
    await sessions.update(id, { phase: 'executing' });
    await answer(touch());
    await sessions.claudeAgentStopped({ agent_id: BG, agent_type: 'terraform-architect' });
    await sessions.approve(id);
    const other = await started('a5555555555555555', 'reviewer');
    expect(other).not.toBe(id);
    expect(await answer(touch({ agent_id: 'a5555555555555555', agent_type: 'reviewer' }))).toBeNull();
  });

  it.each([
    ['a foreground sub-agent of an interactive run', { requestShape: 'foreground', entrypoint: 'cli' }],
    // Claude Code asks the user for it too (tests/host/resume.host.ts, interactive plays).
    ['a background sub-agent of an interactive run', { requestShape: 'background', entrypoint: 'cli' }],
    ['an agent without a meta file', null],
  ])('gives no answer for %s (Claude Code asks)', async (_what, meta) => {
    const id = await started(BG);
    await sessions.update(id, { phase: 'executing' });
    if (meta === null) launch = { ...launch, session_id: '99999999-2222-3333-4444-555555555555' };
    else launch = claudeProject(BG, meta);
    launch.transcript_path = launch.transcript_path!.replace(/[^/]+\.jsonl$/, `${launch.session_id}.jsonl`);
    expect(await answer(touch())).toBeNull();
    expect((await sessions.get(id)).phase).toBe('executing');
  });

  it('parks a foreground sub-agent of a headless run (claude -p: entrypoint sdk-cli)', async () => {
    launch = claudeProject(BG, { requestShape: 'foreground', requestNonInteractive: true, entrypoint: 'sdk-cli' });
    const id = await started(BG);
    await sessions.update(id, { phase: 'executing' });
    expect(await answer(touch())).toEqual(DENY);
    expect((await sessions.get(id)).phase).toBe('approval');
  });

  it.each([
    ['always', { requestShape: 'foreground', entrypoint: 'cli' }, true],
    ['off', { requestShape: 'background', requestNonInteractive: true }, false],
  ] as const)('permission_inbox %s decides alone', async (mode, meta, parks) => {
    ({ sessions } = memorySessions({ permissionInbox: mode }));
    launch = claudeProject(BG, meta);
    const id = await started(BG);
    await sessions.update(id, { phase: 'executing' });
    expect(await answer(touch())).toEqual(parks ? DENY : null);
    expect((await sessions.get(id)).phase).toBe(parks ? 'approval' : 'executing');
  });

  it('rejects: the reason is kept and the call is never allowed', async () => {
    const id = await started(BG);
    await sessions.update(id, { phase: 'executing' });
    await answer(touch());
    await sessions.claudeAgentStopped({ agent_id: BG, agent_type: 'terraform-architect' });
    await sessions.reject(id, { reason: 'no files here' });
    expect(await started(NEXT)).toBe(id);
    expect((await sessions.get(id)).permission_requests!.at(-1)).toMatchObject({
      status: 'rejected',
      reason: 'no files here',
    });
    expect(await answer(touch({ agent_id: NEXT }))).toBeNull();
  });
});
