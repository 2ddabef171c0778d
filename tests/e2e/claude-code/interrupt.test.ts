// Claude Code's Interrupt (2.1.337, captured: tests/fixtures/claude-code/README.md): the user's Esc (or a denied
// permission) ends the main turn; the foreground sub-agent it cut off gets no SubagentStop and no StopFailure. Its
// session says so and the next delegation carries it on; a background sub-agent goes on and is left alone. Through
// the built bins, with the captured payloads and the cut-off agent's own files.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectSlug } from '../../../src/core/claude-transcript';
import type { SessionState } from '../../../src/core/state';
import { contextOf, fixture, hookEnv, makeProject, runHookBin, type Project } from './helpers';

const FIXTURES = join(__dirname, '../../fixtures/claude-code');
/** The foreground agent the user's Esc cut off, and a background one of the same turn that went on (both 2.1.337). */
const CUT = 'ab17e97044663ed26';
const BACKGROUND = 'af6929f5d51ed6859';
const TYPE = 'terraform-architect';

let project: Project;
beforeEach(() => {
  project = makeProject();
});
afterEach(() => project.cleanup());

/**
 * The Interrupt fixture `name` pointed at a Claude Code session folder of the project holding the cut-off agent's meta
 * file and transcript (its first row: this turn's prompt id, or `turn`), and the background agent's meta file.
 */
function interruptOf(name: string, turn?: string): Record<string, unknown> {
  const payload = fixture(name, project);
  const session = String(payload.session_id);
  const projectDir = join(project.dir, '.cc', 'projects', projectSlug(project.dir));
  const subagents = join(projectDir, session, 'subagents');
  mkdirSync(subagents, { recursive: true });
  copyFileSync(
    join(FIXTURES, 'subagents', `agent-${CUT}-2.1.337-cut.meta.json`),
    join(subagents, `agent-${CUT}.meta.json`),
  );
  const first = JSON.parse(
    readFileSync(join(FIXTURES, 'subagents', `agent-${CUT}-2.1.337-cut.first-row.jsonl`), 'utf8'),
  ) as Record<string, unknown>;
  const row = { ...first, promptId: turn ?? payload.prompt_id, sessionId: session, cwd: project.dir };
  writeFileSync(join(subagents, `agent-${CUT}.jsonl`), `${JSON.stringify(row)}\n`);
  copyFileSync(
    join(FIXTURES, 'subagents', `agent-${BACKGROUND}-2.1.337-background.meta.json`),
    join(subagents, `agent-${BACKGROUND}.meta.json`),
  );
  writeFileSync(join(subagents, `agent-${BACKGROUND}.jsonl`), `${JSON.stringify({ ...row, agentId: BACKGROUND })}\n`);
  return { ...payload, transcript_path: join(projectDir, `${session}.jsonl`) };
}

/** A Claude agent's SubagentStart (the 2.1.330 fixture, this agent's id and the interrupt's session). */
function startOf(agentId: string, interrupt: Record<string, unknown>): Record<string, unknown> {
  return { ...fixture('subagent-start-2.1.330.json', project), agent_id: agentId, session_id: interrupt.session_id };
}

function stopOf(agentId: string, interrupt: Record<string, unknown>): Record<string, unknown> {
  return {
    ...fixture('subagent-stop-2.1.330-background.json', project),
    agent_id: agentId,
    session_id: interrupt.session_id,
    last_assistant_message: 'Plan ready: 3 buckets. Waiting for approval.',
  };
}

async function sessionOf(claudeAgent: string): Promise<SessionState> {
  const found = await project.sessions().findByClaudeAgent(claudeAgent);
  if (found === null) throw new Error(`no session linked to ${claudeAgent}`);
  return found;
}

async function sessionCount(): Promise<number> {
  return (await project.sessions().list()).length;
}

function hook(bin: 'pre-delegate' | 'subagent-stop', payload: Record<string, unknown>) {
  const run = runHookBin(bin, payload, hookEnv(project));
  expect(run.status).toBe(0);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  return run;
}

describe('Interrupt (Claude Code 2.1.335+): the sub-agents the main turn’s interrupt cut off (issue 42)', () => {
  it('the user’s Esc: the foreground agent’s session stops and waits, interrupted (user_stopped); the background one runs on; no answer', async () => {
    const interrupt = interruptOf('interrupt-2.1.337.json');
    hook('pre-delegate', startOf(CUT, interrupt));
    hook('pre-delegate', startOf(BACKGROUND, interrupt));
    const run = hook('subagent-stop', interrupt);
    expect(run.stdout).toBe('');
    const cut = await sessionOf(CUT);
    expect(cut.claude?.stopped_at).toEqual(expect.any(String));
    expect(cut.interruption).toMatchObject({ count: 1, waiting: true, error: 'user_stopped', agent_id: CUT });
    expect(cut.interruption?.message).toBe('Interrupt ended the main turn (source user, reason stop, via terminal)');
    expect(cut.error_count).toBe(0);
    expect((await project.sessions().decide(cut)).reason).toBe('session_interrupted');
    const background = await sessionOf(BACKGROUND);
    expect(background.claude?.stopped_at).toBeUndefined();
    expect(background.interruption).toBeUndefined();
  });

  it('the next delegation carries it on: the overview lists it, the new agent is told the user stopped it', async () => {
    const interrupt = interruptOf('interrupt-2.1.337.json');
    hook('pre-delegate', startOf(CUT, interrupt));
    const cut = await sessionOf(CUT);
    hook('subagent-stop', interrupt);
    const overview = contextOf(hook('pre-delegate', fixture('user-prompt-submit-2.1.330.json', project)));
    expect(overview).toContain(cut.agent_id);
    expect(overview).toContain('interrupted by the user stopping the main turn (user_stopped)');
    const offer = contextOf(hook('pre-delegate', fixture('pre-tool-use-agent-2.1.330.json', project)));
    expect(offer).toContain('- Interrupted: by the user stopping the main turn (user_stopped)');
    const context = contextOf(hook('pre-delegate', startOf('a00000000000000c3', interrupt)));
    expect(context).toContain(`resumes session ${cut.agent_id}`);
    expect(context).toContain('interrupted by the user stopping the main turn (user_stopped)');
    expect(context).toContain('source user, reason stop, via terminal');
    const after = await project.sessions().get(cut.agent_id);
    expect(after.claude?.agent_id).toBe('a00000000000000c3');
    expect(after.interruption).toMatchObject({ count: 1, carried_on: 1, waiting: false });
    expect(await sessionCount()).toBe(1);
  });

  it('a denied permission: kind permission_denied, naming the inbox item its session waits on', async () => {
    const interrupt = interruptOf('interrupt-permission-denied-2.1.337.json');
    hook('pre-delegate', startOf(CUT, interrupt));
    const sessions = project.sessions();
    const parked = await sessions.parkPermission({
      tool: 'Bash',
      input: { command: 'touch PERM-FILE' },
      claudeAgentId: CUT,
    });
    expect(parked).not.toBeNull();
    hook('subagent-stop', interrupt);
    const cut = await sessionOf(CUT);
    expect(cut.interruption?.error).toBe('permission_denied');
    expect(cut.interruption?.message).toContain('reason permission_denied');
    expect(cut.interruption?.message).toContain(`the inbox item of session ${cut.agent_id}`);
    expect(cut.interruption?.message).toContain('its Bash call');
    const overview = contextOf(hook('pre-delegate', fixture('user-prompt-submit-2.1.330.json', project)));
    expect(overview).toContain('a denied permission request ending the main turn (permission_denied)');
  });

  it('a denied permission with no inbox item of ours: the kind alone, no item named', async () => {
    const interrupt = interruptOf('interrupt-permission-denied-2.1.337.json');
    hook('pre-delegate', startOf(CUT, interrupt));
    hook('subagent-stop', interrupt);
    const cut = await sessionOf(CUT);
    expect(cut.interruption?.error).toBe('permission_denied');
    expect(cut.interruption?.message).not.toContain('inbox item');
  });

  it('its own SubagentStop first (it had finished): the stop stands, no interruption', async () => {
    const interrupt = interruptOf('interrupt-2.1.337.json');
    hook('pre-delegate', startOf(CUT, interrupt));
    // Parked in planning: the stop keeps the session open (an initializing one would end abandoned).
    await project.sessions().update((await sessionOf(CUT)).agent_id, { phase: 'planning' });
    hook('subagent-stop', stopOf(CUT, interrupt));
    const stopped = await sessionOf(CUT);
    expect(stopped.phase).toBe('planning');
    hook('subagent-stop', interrupt);
    const after = await sessionOf(CUT);
    expect(after.interruption).toBeUndefined();
    expect(after).toEqual(stopped);
  });

  it('a SubagentStop after the Interrupt loses nothing: its last message recorded, the session still waits', async () => {
    const interrupt = interruptOf('interrupt-2.1.337.json');
    hook('pre-delegate', startOf(CUT, interrupt));
    await project.sessions().update((await sessionOf(CUT)).agent_id, { phase: 'planning' });
    hook('subagent-stop', interrupt);
    hook('subagent-stop', stopOf(CUT, interrupt));
    const after = await sessionOf(CUT);
    expect(after.claude?.last_message).toBe('Plan ready: 3 buckets. Waiting for approval.');
    expect(after.interruption).toMatchObject({ waiting: true, error: 'user_stopped' });
    expect(after.phase).toBe('planning');
  });

  it('the Interrupt before its SubagentStart was handled: one session, interrupted, and the late start runs nothing again', async () => {
    const interrupt = interruptOf('interrupt-2.1.337.json');
    hook('subagent-stop', interrupt);
    const made = await sessionOf(CUT);
    expect(made.agent_name).toBe(TYPE);
    expect(made.interruption).toMatchObject({ waiting: true, error: 'user_stopped' });
    hook('pre-delegate', startOf(CUT, interrupt));
    const after = await sessionOf(CUT);
    expect(after.agent_id).toBe(made.agent_id);
    expect(after.claude?.stopped_at).toEqual(expect.any(String));
    expect(after.interruption?.waiting).toBe(true);
    expect(await sessionCount()).toBe(1);
  });

  it('reported twice (two hook processes): one interruption', async () => {
    const interrupt = interruptOf('interrupt-2.1.337.json');
    hook('pre-delegate', startOf(CUT, interrupt));
    hook('subagent-stop', interrupt);
    const once = await sessionOf(CUT);
    hook('pre-delegate', interrupt);
    expect(await sessionOf(CUT)).toEqual(once);
    expect(once.interruption?.count).toBe(1);
  });

  it('an agent of an earlier turn (another prompt id) that is not attached: nothing is made for it', async () => {
    const interrupt = interruptOf('interrupt-2.1.337.json', '00000000-0000-4000-8000-000000000000');
    hook('subagent-stop', interrupt);
    expect(await sessionCount()).toBe(0);
  });

  it.each([
    ['names an agent (Claude Code fires it for the main thread only)', { agent_id: CUT }],
    ['names no usable session folder', { transcript_path: '/nowhere/x.jsonl' }],
  ])('a payload that %s: nothing changes', async (_what, change) => {
    const interrupt = interruptOf('interrupt-2.1.337.json');
    hook('pre-delegate', startOf(CUT, interrupt));
    const before = await sessionOf(CUT);
    hook('subagent-stop', { ...interrupt, ...change });
    expect(await sessionOf(CUT)).toEqual(before);
  });
});

describe('a resumed session (SessionStart `source: "resume"`, 2.1.337): its sub-agents that never finished (issue 42 item 4)', () => {
  it('each one still running in its session records unfinished_at_resume, listed by the same answer, carried on next', async () => {
    const resume = interruptOf('session-start-resume-2.1.337.json');
    hook('pre-delegate', startOf(CUT, resume));
    hook('pre-delegate', startOf(BACKGROUND, resume));
    const overview = contextOf(hook('pre-delegate', resume));
    const ids: string[] = [];
    for (const agent of [CUT, BACKGROUND]) {
      const state = await sessionOf(agent);
      expect(state.claude?.stopped_at).toEqual(expect.any(String));
      expect(state.interruption).toMatchObject({ waiting: true, error: 'unfinished_at_resume', agent_id: agent });
      expect(state.interruption?.message).toContain("didn't finish before the previous session ended");
      ids.push(state.agent_id);
    }
    // The overview lists an agent type's newest session (both are the terraform architect's).
    expect(ids.filter((id) => overview.includes(id))).toHaveLength(1);
    expect(overview).toContain(
      'interrupted by its Claude Code session ending before it finished (unfinished_at_resume)',
    );
    const context = contextOf(hook('pre-delegate', startOf('a00000000000000c4', resume)));
    expect(context).toMatch(/resumes session .* was interrupted by its Claude Code session ending before it finished/s);
  });

  it('an agent that stopped (SubagentStop) or was already interrupted is left as it is; a fresh start closes nothing', async () => {
    const resume = interruptOf('session-start-resume-2.1.337.json');
    hook('pre-delegate', startOf(CUT, resume));
    hook('pre-delegate', startOf(BACKGROUND, resume));
    hook('subagent-stop', stopOf(BACKGROUND, resume));
    const stopped = await sessionOf(BACKGROUND);
    hook('pre-delegate', { ...resume, source: 'startup' });
    expect((await sessionOf(CUT)).interruption).toBeUndefined();
    hook('subagent-stop', {
      ...fixture('stop-failure-2.1.332.json', project),
      agent_id: CUT,
      session_id: resume.session_id,
    });
    const failed = await sessionOf(CUT);
    hook('pre-delegate', resume);
    expect(await sessionOf(BACKGROUND)).toEqual(stopped);
    expect(await sessionOf(CUT)).toEqual(failed);
  });
});
