// The scenario, end to end through the built bins and CLI, as Claude Code would drive them:
// SubagentStart → progress updates → park in approval → SubagentStop (kept) → PreToolUse for the same agent
// (resume context) → SubagentStart (relinked) → executing → SubagentStop (completed).
import { spawnSync } from 'node:child_process';
import { contextOf, expectNoDecision, fixture, hookEnv, makeProject, runHookBin, type Project } from './helpers';

let project: Project;
beforeEach(() => {
  project = makeProject();
});
afterEach(() => project.cleanup());

/** Runs a command line the way the sub-agent would run the one it was given (through a shell). */
function runGiven(commandLine: string): { status: number | null; stdout: string } {
  const result = spawnSync('/bin/sh', ['-c', commandLine], {
    env: hookEnv(project),
    cwd: project.dir,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout };
}

function commandFrom(context: string, label: string): string {
  const line = context.split('\n').find((l) => l.startsWith(`- ${label}: `));
  if (line === undefined) throw new Error(`no "${label}" command in:\n${context}`);
  return line.slice(`- ${label}: `.length);
}

it('creates, parks, resumes and finalizes one session across two Claude agents', async () => {
  const env = hookEnv(project);
  const agentType = 'terraform-architect';
  const start = (agentId: string) => ({
    ...fixture('subagent-start.json', project),
    agent_id: agentId,
    agent_type: agentType,
    session_id: 'sess-1',
  });
  const stop = (agentId: string, message: string) => ({
    ...fixture('subagent-stop-current.json', project),
    agent_id: agentId,
    agent_type: agentType,
    last_assistant_message: message,
  });

  // 1. The first agent starts: a new session, linked to it; the context names the session and the commands.
  const started = runHookBin('pre-delegate', start('a1111111111111111'), env);
  expectNoDecision(started);
  const [first] = await project.sessions().list();
  if (first?.kind !== 'valid') throw new Error('no session created');
  const id = first.id;
  expect(first.state.claude?.agent_id).toBe('a1111111111111111');
  const context = contextOf(started);
  expect(context).toContain(id);

  // 2. Progress, recorded with the exact commands the context gave (phase placeholder filled in).
  const phaseCommand = commandFrom(context, 'phase').replace(/<[^>]+>$/, '');
  expect(runGiven(`${phaseCommand}planning`).status).toBe(0);
  expect(runGiven(commandFrom(context, 'findings').replace('<text>', 'two buckets lack encryption')).status).toBe(0);
  expect(runGiven(`${phaseCommand}approval`).status).toBe(0);

  // 3. It stops to wait for approval: kept open and resumable.
  expect(
    runHookBin('subagent-stop', stop('a1111111111111111', 'Plan ready; waiting for your approval.'), env).stdout,
  ).toBe('');
  let state = await project.sessions().get(id);
  expect(state.phase).toBe('approval');
  expect((await project.sessions().decide(state)).should_resume).toBe(true);

  // 4. The next delegation to the same agent: resume context with everything needed to continue.
  const pre = runHookBin(
    'pre-delegate',
    {
      ...fixture('pre-tool-use-agent.json', project),
      tool_input: { subagent_type: agentType, prompt: 'approved, go ahead' },
    },
    env,
  );
  expectNoDecision(pre);
  const resume = contextOf(pre);
  for (const fact of [
    id,
    'approval',
    'two buckets lack encryption',
    'a1111111111111111',
    'waiting for your approval',
    'planning → approval',
    `update ${id}`,
  ]) {
    expect(resume).toContain(fact);
  }

  // 5. A new agent starts for it: the parked session is relinked, not duplicated.
  const restarted = runHookBin('pre-delegate', start('a2222222222222222'), env);
  expect(contextOf(restarted)).toContain(`resumes session ${id}`);
  expect(await project.sessions().list()).toHaveLength(1);
  expect((await project.sessions().get(id)).claude?.agent_id).toBe('a2222222222222222');

  // 6. It executes, then stops: the session is finalized completed, with its last message as summary.
  expect(runGiven(`${commandFrom(contextOf(restarted), 'phase').replace(/<[^>]+>$/, '')}executing`).status).toBe(0);
  expect(runHookBin('subagent-stop', stop('a2222222222222222', 'Applied: 2 buckets encrypted.'), env).stdout).toBe('');
  state = await project.sessions().get(id);
  expect(state.phase).toBe('completed');
  expect(state.summary).toBe('Applied: 2 buckets encrypted.');
  expect(state.history.map((h) => h.to_phase)).toEqual(['planning', 'approval', 'approval', 'executing', 'completed']);
  // The relink to the second Claude agent is the resume, recorded once.
  expect(state.history.filter((h) => h.event === 'resume')).toEqual([
    expect.objectContaining({ from_phase: 'approval', to_phase: 'approval' }),
  ]);

  // Nothing is offered any more, and a late stop of the first agent changes nothing.
  expect(
    runHookBin(
      'pre-delegate',
      { ...fixture('pre-tool-use-agent.json', project), tool_input: { subagent_type: agentType } },
      env,
    ).stdout,
  ).toBe('');
  runHookBin('subagent-stop', stop('a1111111111111111', 'late'), env);
  expect((await project.sessions().get(id)).phase).toBe('completed');
});

it('finalizes failed when the errors reached the limit, even parked in approval', async () => {
  const env = hookEnv(project);
  runHookBin('pre-delegate', { ...fixture('subagent-start.json', project), agent_id: 'a3333333333333333' }, env);
  const [entry] = await project.sessions().list();
  const sessions = project.sessions();
  await sessions.update(entry!.id, { phase: 'approval', error: 'one' });
  await sessions.update(entry!.id, { error: 'two' });
  await sessions.update(entry!.id, { error: 'three' });
  runHookBin(
    'subagent-stop',
    { ...fixture('subagent-stop-current.json', project), agent_id: 'a3333333333333333' },
    env,
  );
  expect((await project.sessions().get(entry!.id)).phase).toBe('failed');
});

it('does not relink a session whose agent is still running: a parallel delegation gets its own session', async () => {
  const env = hookEnv(project);
  runHookBin('pre-delegate', { ...fixture('subagent-start.json', project), agent_id: 'a4444444444444444' }, env);
  const [entry] = await project.sessions().list();
  await project.sessions().update(entry!.id, { phase: 'approval' });
  // No SubagentStop yet: the first agent still runs.
  expect(runHookBin('pre-delegate', fixture('pre-tool-use-agent.json', project), env).stdout).toBe('');
  runHookBin('pre-delegate', { ...fixture('subagent-start.json', project), agent_id: 'a5555555555555555' }, env);
  expect(await project.sessions().list()).toHaveLength(2);
  expect((await project.sessions().get(entry!.id)).claude?.agent_id).toBe('a4444444444444444');
});
