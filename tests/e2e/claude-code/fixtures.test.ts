// Every payload of the corpus, through both built bins: exit 0, no stack trace, and at most one answer that
// Claude Code's documented output schema accepts. Then what each event does to the store.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionState } from '../../../src/core/state';
import {
  BINS,
  contextOf,
  expectNoDecision,
  fixture,
  fixtureNames,
  hookEnv,
  makeProject,
  runHookBin,
  type HookBinName,
  type Project,
} from './helpers';

const bins = Object.keys(BINS) as HookBinName[];
let project: Project;
beforeEach(() => {
  project = makeProject();
});
afterEach(() => project.cleanup());

/** A session of `agent` parked in approval, linked to Claude agent `claudeAgent` (stopped), or unlinked. */
async function parked(
  agent: string,
  claudeAgent?: string,
  phase: 'approval' | 'executing' = 'approval',
): Promise<SessionState> {
  const sessions = project.sessions();
  const state = await sessions.create({
    agent_name: agent,
    purpose: 'test',
    metadata: { task_id: 'T001', findings: 'three issues' },
  });
  await sessions.update(state.agent_id, { phase });
  if (claudeAgent !== undefined)
    await sessions.linkClaude(state.agent_id, { agent_id: claudeAgent, agent_type: agent, stopped: true });
  return project.sessions().get(state.agent_id);
}

async function allSessions(): Promise<SessionState[]> {
  return (await project.sessions().list()).flatMap((e) => (e.kind === 'valid' ? [e.state] : []));
}

describe('the payload corpus', () => {
  it('holds a fixture for every event and version variant the notes list', () => {
    expect(fixtureNames().length).toBeGreaterThanOrEqual(20);
    const events = new Set(
      fixtureNames().map(
        (name) => JSON.parse(readFileSync(join(__dirname, '../../fixtures/claude-code', name), 'utf8')).hook_event_name,
      ),
    );
    expect([...events].sort()).toEqual([
      'Interrupt',
      'PostToolUse',
      'PostToolUseFailure',
      'PreToolUse',
      'SessionEnd',
      'SessionStart',
      'Stop',
      'StopFailure',
      'SubagentStart',
      'SubagentStop',
      'UserPromptSubmit',
    ]);
  });

  describe.each(fixtureNames())('%s', (name) => {
    it.each(bins)(
      'runs through %s: exit 0 and a schema-valid answer or nothing, on an empty and on a busy store',
      async (bin) => {
        const payload = fixture(name, project);
        const first = runHookBin(bin, payload, hookEnv(project));
        expect(first.status).toBe(0);
        expect(first.stderr).not.toMatch(/\n\s+at /);
        expectNoDecision(first);
        // A store with resumable sessions for every agent the corpus names.
        for (const agent of ['Explore', 'terraform-architect', 'general-purpose', 'fork', 'reviewer'])
          await parked(agent);
        const second = runHookBin(bin, payload, hookEnv(project));
        expect(second.status).toBe(0);
        expectNoDecision(second);
      },
    );
  });
});

describe('what each event does', () => {
  it.each([
    ['pre-tool-use-agent.json', 'Explore'],
    ['pre-tool-use-task-pre-2.1.63.json', 'terraform-architect'],
    ['pre-tool-use-task-pre-2.0.43.json', 'terraform-architect'],
    ['pre-tool-use-agent-no-subagent-type.json', 'general-purpose'],
  ])('PreToolUse %s offers the resumable session of %s, in both bins', async (name, agent) => {
    expect(runHookBin('pre-delegate', fixture(name, project), hookEnv(project)).answer).toBeNull();
    const state = await parked(agent, 'a4d2c8f1e0b3a297');
    for (const bin of bins) {
      const run = runHookBin(bin, fixture(name, project), hookEnv(project));
      expect(run.answer).not.toBeNull();
      const context = contextOf(run);
      expect(context).toContain(state.agent_id);
      expect(context).toContain('approval');
      expect(context).toContain('T001');
      expect(context).toContain('three issues');
      expect(context).toContain('a4d2c8f1e0b3a297');
      expect(context).toContain(`update ${state.agent_id}`);
    }
  });

  it.each(['pre-tool-use-bash.json', 'pre-tool-use-inside-subagent.json'])(
    'PreToolUse of another tool (%s) prints nothing',
    async (name) => {
      await parked('Explore');
      expect(runHookBin('pre-delegate', fixture(name, project), hookEnv(project)).stdout).toBe('');
    },
  );

  it('PreToolUse prints nothing when the newest session is not resumable', async () => {
    await parked('Explore', undefined, 'executing');
    expect(runHookBin('pre-delegate', fixture('pre-tool-use-agent.json', project), hookEnv(project)).stdout).toBe('');
  });

  it.each([
    ['subagent-start.json', 'agent-abc123', 'Explore'],
    ['subagent-start-2.1.173.json', 'a1b2c3d4e5f60718', 'orchestkit:backend-architect'],
  ])('SubagentStart %s creates a session linked to %s', async (name, claudeAgent, agentType) => {
    const run = runHookBin('pre-delegate', fixture(name, project), hookEnv(project));
    const sessions = await allSessions();
    expect(sessions).toHaveLength(1);
    const state = sessions[0]!;
    expect(state.agent_name).toBe(agentType);
    expect(state.claude?.agent_id).toBe(claudeAgent);
    expect(state.claude?.session_id).toEqual(expect.any(String));
    const context = contextOf(run);
    expect(context).toContain(state.agent_id);
    expect(context).toContain('--phase');
    expect(context).toContain('--error');
  });

  it.each([
    ['subagent-stop-current.json', 'def456', 'Analysis complete'],
    ['subagent-stop-2.1.47-no-agent-type.json', 'def456', 'Done.'],
    ['subagent-stop-2.0.42.json', 'def456', 'def456'],
    ['subagent-stop-2.1.220-background.json', 'a9b8c7d6e5f40312', 'Review done.'],
  ])('SubagentStop %s finalizes the working session linked to %s', async (name, claudeAgent, summary) => {
    const state = await parked('Explore', claudeAgent, 'executing');
    const run = runHookBin('subagent-stop', fixture(name, project), hookEnv(project));
    expect(run.stdout).toBe('');
    const after = await project.sessions().get(state.agent_id);
    expect(after.phase).toBe('completed');
    expect(after.summary).toContain(summary);
  });

  it('SubagentStop keeps a session parked in approval open and resumable, with the last message', async () => {
    const state = await parked('Explore', 'def456');
    runHookBin('pre-delegate', fixture('subagent-stop-current.json', project), hookEnv(project));
    const after = await project.sessions().get(state.agent_id);
    expect(after.phase).toBe('approval');
    expect((await project.sessions().decide(after)).should_resume).toBe(true);
    expect(after.claude?.last_message).toContain('Analysis complete');
    expect(after.claude?.stopped_at).toEqual(expect.any(String));
  });

  it.each(['subagent-stop-pre-2.0.42.json', 'subagent-stop-internal-fork.json'])(
    'SubagentStop %s changes nothing',
    async (name) => {
      const linked = await parked('Explore', 'a0000000000000fe', 'executing');
      const before = JSON.stringify(await allSessions());
      const run = runHookBin('subagent-stop', fixture(name, project), hookEnv(project));
      expect(run.stdout).toBe('');
      expect(JSON.stringify(await allSessions())).toBe(before);
      expect((await project.sessions().get(linked.agent_id)).phase).toBe('executing');
    },
  );

  it('PostToolUse async_launched links a new session to the background agent', async () => {
    runHookBin('subagent-stop', fixture('post-tool-use-agent-async-launched.json', project), hookEnv(project));
    const sessions = await allSessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.agent_name).toBe('reviewer');
    expect(sessions[0]!.claude?.agent_id).toBe('a9b8c7d6e5f40312');
    // Its SubagentStart, arriving afterwards, finds the same session.
    runHookBin(
      'pre-delegate',
      { ...fixture('subagent-start.json', project), agent_id: 'a9b8c7d6e5f40312', agent_type: 'reviewer' },
      hookEnv(project),
    );
    expect(await allSessions()).toHaveLength(1);
  });

  it.each(['post-tool-use-agent-completed.json', 'post-tool-use-task-text-response.json', 'post-tool-use-bash.json'])(
    'PostToolUse %s creates nothing',
    async (name) => {
      runHookBin('subagent-stop', fixture(name, project), hookEnv(project));
      expect(await allSessions()).toHaveLength(0);
    },
  );

  it.each([
    'session-start.json',
    'session-end.json',
    'stop.json',
    'user-prompt-submit.json',
    'session-start-2.1.330.json',
    'user-prompt-submit-2.1.330.json',
    'stop-2.1.330.json',
    'session-end-2.1.330.json',
  ])('%s on a store with nothing parked: no answer, no session', async (name) => {
    for (const bin of bins) expect(runHookBin(bin, fixture(name, project), hookEnv(project)).stdout).toBe('');
    expect(await allSessions()).toHaveLength(0);
  });
});

describe('Claude Code 2.1.330 payloads (ids `a` + 16 hex, prompt_id, effort, duration_ms, background_tasks)', () => {
  const AGENT = 'af579281bbbceedc2';

  it('PreToolUse offers the parked session, worded for an answer read after the delegation started', async () => {
    const state = await parked('terraform-architect', 'a0000000000000001');
    const context = contextOf(
      runHookBin('pre-delegate', fixture('pre-tool-use-agent-2.1.330.json', project), hookEnv(project)),
    );
    expect(context).toContain(state.agent_id);
    expect(context).toContain('when this delegation was made');
  });

  const LINKING = ['post-tool-use-agent-async-launched-2.1.330.json', 'subagent-start-2.1.330.json'];
  it.each(LINKING)('%s links one session to the 17-character agent id', async (name) => {
    const bin = name.startsWith('post') ? 'subagent-stop' : 'pre-delegate';
    runHookBin(bin, fixture(name, project), hookEnv(project));
    const sessions = await allSessions();
    expect(sessions).toHaveLength(1);
    const claudeSession = '0a435742-ed6d-4786-906c-cb9116373631';
    expect(sessions[0]).toMatchObject({
      agent_name: 'terraform-architect',
      claude: { agent_id: AGENT, session_id: claudeSession },
    });
  });

  it('a background agent: launch, start, park in approval, stop listing itself as running: one session, kept', async () => {
    runHookBin('subagent-stop', fixture('post-tool-use-agent-async-launched-2.1.330.json', project), hookEnv(project));
    runHookBin('pre-delegate', fixture('subagent-start-2.1.330.json', project), hookEnv(project));
    const [only] = await allSessions();
    await project.sessions().update(only!.agent_id, { phase: 'approval' });
    // Events from inside the sub-agent (its Bash calls) are not ours: nothing printed, nothing changed.
    for (const name of [
      'pre-tool-use-bash-inside-subagent-2.1.330.json',
      'post-tool-use-bash-inside-subagent-2.1.330.json',
    ]) {
      expect(runHookBin('pre-delegate', fixture(name, project), hookEnv(project)).stdout).toBe('');
    }
    runHookBin('subagent-stop', fixture('subagent-stop-2.1.330-background.json', project), hookEnv(project));
    const after = await allSessions();
    expect(after).toHaveLength(1);
    const message = expect.stringContaining('3 resources');
    expect(after[0]).toMatchObject({ phase: 'approval', claude: { agent_id: AGENT, last_message: message } });
    expect(after[0]!.claude?.stopped_at).toEqual(expect.any(String));
  });

  it('a foreground agent that finished before its PostToolUse (status completed) gets no session from it', async () => {
    runHookBin('subagent-stop', fixture('post-tool-use-agent-completed-2.1.330.json', project), hookEnv(project));
    expect(await allSessions()).toHaveLength(0);
  });

  it('a stop that overtakes its start events still ends the natural way: abandoned when nothing was recorded', async () => {
    runHookBin('subagent-stop', fixture('subagent-stop-2.1.330-background.json', project), hookEnv(project));
    runHookBin('pre-delegate', fixture('subagent-start-2.1.330.json', project), hookEnv(project));
    runHookBin('subagent-stop', fixture('post-tool-use-agent-async-launched-2.1.330.json', project), hookEnv(project));
    const sessions = await allSessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ phase: 'abandoned', claude: { agent_id: AGENT } });
    expect(sessions[0]!.summary).toContain('still initializing');
  });

  it('a SubagentStart arriving after PostToolUse relinked the parked session still tells the sub-agent it resumes', async () => {
    const state = await parked('terraform-architect', 'a0000000000000001');
    runHookBin('subagent-stop', fixture('post-tool-use-agent-async-launched-2.1.330.json', project), hookEnv(project));
    const context = contextOf(
      runHookBin('pre-delegate', fixture('subagent-start-2.1.330.json', project), hookEnv(project)),
    );
    expect(context).toContain(`resumes session ${state.agent_id}`);
    expect(context).toContain('parked in phase approval');
    expect(context).toContain('T001');
    expect(await allSessions()).toHaveLength(1);
  });
});

describe('a sub-agent that dies of an API error or a usage limit (StopFailure, 2.1.330 and 2.1.332; issue 22)', () => {
  const FAILURES = [
    ['stop-failure-2.1.330.json', 'unknown', 'API Error: 400'],
    ['stop-failure-rate-limit-2.1.330.json', 'rate_limit', 'Request rejected (429)'],
    ['stop-failure-server-error-2.1.330.json', 'server_error', 'Repeated 529 Overloaded'],
    ['stop-failure-2.1.332.json', 'unknown', 'API Error: 400'],
    ['stop-failure-rate-limit-2.1.332.json', 'rate_limit', 'Request rejected (429)'],
    ['stop-failure-usage-limit-2.1.332.json', 'rate_limit', 'usage limit reached'],
    ['stop-failure-server-error-2.1.332.json', 'server_error', 'Repeated 529 Overloaded'],
  ] as const;

  /** A session of terraform-architect in `phase`, linked to the fixture's agent, which is still running. */
  async function running(name: string, phase: 'initializing' | 'executing' | 'validating'): Promise<SessionState> {
    const agent = (fixture(name, project) as { agent_id: string }).agent_id;
    const sessions = project.sessions();
    const state = await sessions.create({
      agent_name: 'terraform-architect',
      purpose: 'p',
      metadata: { task_id: 'T9' },
    });
    if (phase !== 'initializing') await sessions.update(state.agent_id, { phase: 'executing' });
    if (phase === 'validating') await sessions.update(state.agent_id, { phase: 'validating' });
    await sessions.linkClaude(state.agent_id, { agent_id: agent, agent_type: 'terraform-architect' });
    return sessions.get(state.agent_id);
  }

  it.each(FAILURES)(
    '%s: the session stops its link and waits, interrupted (%s), in its phase; no answer',
    async (name, kind, said) => {
      const state = await running(name, 'executing');
      const run = runHookBin('subagent-stop', fixture(name, project), hookEnv(project));
      expect(run.status).toBe(0);
      expect(run.stdout).toBe('');
      const after = await project.sessions().get(state.agent_id);
      expect(after.phase).toBe('executing');
      expect(after.claude?.stopped_at).toEqual(expect.any(String));
      expect(after.error_count).toBe(0);
      expect(after.interruption).toMatchObject({
        count: 1,
        carried_on: 0,
        waiting: true,
        error: kind,
        phase: 'executing',
      });
      expect(after.interruption?.message).toContain(said);
      expect(after.interruption?.agent_id).toBe(after.claude?.agent_id);
      expect((await project.sessions().decide(after)).reason).toBe('session_interrupted');
    },
  );

  it.each(['initializing', 'validating'] as const)(
    'an agent that dies in %s leaves its session open too (an interrupted session is not a finished one)',
    async (phase) => {
      const state = await running('stop-failure-2.1.332.json', phase);
      runHookBin('subagent-stop', fixture('stop-failure-2.1.332.json', project), hookEnv(project));
      const after = await project.sessions().get(state.agent_id);
      expect(after.phase).toBe(phase);
      expect(after.interruption?.waiting).toBe(true);
    },
  );

  it('the next delegation carries it on: SubagentStart relinks it and tells the new agent what happened', async () => {
    const state = await running('stop-failure-rate-limit-2.1.330.json', 'executing');
    runHookBin('subagent-stop', fixture('stop-failure-rate-limit-2.1.330.json', project), hookEnv(project));
    const overview = contextOf(
      runHookBin('pre-delegate', fixture('user-prompt-submit-2.1.330.json', project), hookEnv(project)),
    );
    expect(overview).toContain(state.agent_id);
    expect(overview).toContain('interrupted by a rate or usage limit (rate_limit)');
    const offer = contextOf(
      runHookBin('pre-delegate', fixture('pre-tool-use-agent-2.1.330.json', project), hookEnv(project)),
    );
    expect(offer).toContain(`had an interrupted session`);
    expect(offer).toContain('- Interrupted: by a rate or usage limit (rate_limit)');
    const start = { ...fixture('subagent-start-2.1.330.json', project), agent_id: 'a00000000000000b2' };
    const context = contextOf(runHookBin('pre-delegate', start, hookEnv(project)));
    expect(context).toContain(`resumes session ${state.agent_id}`);
    expect(context).toContain('interrupted by a rate or usage limit (rate_limit)');
    expect(context).toContain('in phase executing');
    expect(context).toContain('"T9"');
    expect(context).toContain('Request rejected (429)');
    const after = await project.sessions().get(state.agent_id);
    expect(after.claude?.agent_id).toBe('a00000000000000b2');
    expect(after.claude?.stopped_at).toBeUndefined();
    expect(after.interruption).toMatchObject({ count: 1, carried_on: 1, waiting: false });
    expect(after.history.at(-1)).toMatchObject({ event: 'resume', to_phase: 'executing' });
  });

  it('a late SubagentStop of the dead agent keeps the session open (no completed for an interrupted session)', async () => {
    const state = await running('stop-failure-2.1.330.json', 'executing');
    runHookBin('subagent-stop', fixture('stop-failure-2.1.330.json', project), hookEnv(project));
    const stop = {
      ...fixture('subagent-stop-2.1.330-background.json', project),
      agent_id: (fixture('stop-failure-2.1.330.json', project) as { agent_id: string }).agent_id,
    };
    runHookBin('subagent-stop', stop, hookEnv(project));
    const after = await project.sessions().get(state.agent_id);
    expect(after.phase).toBe('executing');
    expect(after.interruption?.waiting).toBe(true);
  });

  it('the same failure reported twice records one interruption', async () => {
    const state = await running('stop-failure-2.1.332.json', 'executing');
    runHookBin('subagent-stop', fixture('stop-failure-2.1.332.json', project), hookEnv(project));
    const once = await project.sessions().get(state.agent_id);
    runHookBin('subagent-stop', fixture('stop-failure-2.1.332.json', project), hookEnv(project));
    expect(await project.sessions().get(state.agent_id)).toEqual(once);
    expect(once.interruption?.count).toBe(1);
  });

  it.each(['post-tool-use-failure-agent-2.1.330.json', 'post-tool-use-failure-agent-2.1.332.json'])(
    '%s (the foreground Agent tool’s failure: no agent_id) changes nothing',
    async (name) => {
      const state = await running('stop-failure-2.1.330.json', 'executing');
      const before = JSON.stringify(await allSessions());
      for (const bin of bins) expect(runHookBin(bin, fixture(name, project), hookEnv(project)).stdout).toBe('');
      expect(JSON.stringify(await allSessions())).toBe(before);
      expect((await project.sessions().get(state.agent_id)).interruption).toBeUndefined();
    },
  );

  it('the main agent’s own StopFailure (no agent_id) is not a sub-agent’s: nothing changes', async () => {
    const state = await running('stop-failure-2.1.330.json', 'executing');
    const {
      agent_id: _id,
      agent_type: _type,
      ...main
    } = fixture('stop-failure-2.1.330.json', project) as Record<string, unknown>;
    runHookBin('subagent-stop', main, hookEnv(project));
    expect((await project.sessions().get(state.agent_id)).interruption).toBeUndefined();
  });
});

describe('the parked sessions on SessionStart and UserPromptSubmit', () => {
  it.each([
    ['session-start-2.1.330.json', 'SessionStart'],
    ['user-prompt-submit-2.1.330.json', 'UserPromptSubmit'],
    ['session-start.json', 'SessionStart'],
  ])(
    '%s lists each agent type’s parked session: type, id, phase, when, task, findings, Claude agent id',
    async (name, event) => {
      const tf = await parked('terraform-architect', 'a0000000000000001');
      const explore = await parked('Explore');
      // Not parked: its agent still runs, or it is executing.
      const sessions = project.sessions();
      const running = await sessions.create({ agent_name: 'reviewer', purpose: 'p' });
      await sessions.update(running.agent_id, { phase: 'approval' });
      await sessions.linkClaude(running.agent_id, { agent_id: 'a0000000000000002' });
      await parked('builder', undefined, 'executing');
      const run = runHookBin('pre-delegate', fixture(name, project), hookEnv(project));
      expect((run.answer?.hookSpecificOutput as { hookEventName: string }).hookEventName).toBe(event);
      const context = contextOf(run);
      expect(context.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(2);
      const facts = [
        tf.agent_id,
        explore.agent_id,
        'terraform-architect',
        'phase approval',
        'ago',
        'T001',
        'three issues',
      ];
      facts.push('a0000000000000001');
      for (const fact of facts) {
        expect(context).toContain(fact);
      }
      expect(context).not.toContain(running.agent_id);
      expect(context).not.toContain('builder');
    },
  );

  it('stays within about 1,500 characters, saying how many more there are', async () => {
    for (let i = 0; i < 30; i++) await parked(`agent-type-${String(i).padStart(2, '0')}-${'x'.repeat(40)}`);
    const context = contextOf(
      runHookBin('pre-delegate', fixture('user-prompt-submit-2.1.330.json', project), hookEnv(project)),
    );
    expect(context.length).toBeLessThanOrEqual(1500);
    expect(context).toMatch(/\(\+\d+ more: .* list --active-only\)$/);
  });

  it('prints nothing once the parked session expired', async () => {
    const state = await parked('Explore');
    const stateFile = join(project.root, state.agent_id, 'state.json');
    const old = { ...state, last_updated: new Date(Date.now() - 3_600_000).toISOString() };
    writeFileSync(stateFile, JSON.stringify(old));
    expect(runHookBin('pre-delegate', fixture('session-start-2.1.330.json', project), hookEnv(project)).stdout).toBe(
      '',
    );
  });
});

// Issue 44 item 2: the person is told, once per item, in the line Claude Code shows at the main turn's end.
describe('Stop: a line for the person naming what waits (systemMessage), once per item', () => {
  const stop = (home: string) =>
    runHookBin('subagent-stop', fixture('stop-2.1.330.json', project), hookEnv(project, { HOME: home }));

  it('names the decision that started waiting and how to decide it, then never again (a later turn, a resume)', async () => {
    const home = join(project.dir, 'home');
    const first = stop(home);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe('');
    const state = await parked('terraform-architect');
    const told = stop(home);
    expect(told.status).toBe(0);
    expect(told.answer).toEqual({
      systemMessage: expect.stringMatching(
        /^agent-session: 1 decision waits — terraform-architect \(\w{8}\) waits for approval of its findings: three issues · /,
      ),
    });
    const line = told.answer!.systemMessage as string;
    expect(line).toContain(`\`agent-session approve ${state.agent_id}\``);
    expect(line).toContain('or on the page (`agent-session serve`)');
    // A later turn, and the first turn of a `--resume`d session (the same event): nothing more.
    expect(stop(home).stdout).toBe('');
    expect(runHookBin('pre-delegate', fixture('stop.json', project), hookEnv(project, { HOME: home })).stdout).toBe('');
    expect(readFileSync(join(project.dir, '.claude', 'logs', 'subagent_stop.log'), 'utf8')).toMatch(
      /claude-code event="Stop" told count=1 waiting=1\n.*claude-code event="Stop" told_before waiting=1\n/,
    );
  });

  it("leaves a sub-agent's payload alone, and fails open (exit 0, nothing) where nothing can be recorded", async () => {
    const home = join(project.dir, 'home');
    await parked('terraform-architect');
    const subagent = { ...fixture('stop-2.1.330.json', project), agent_id: 'a0000000000000001' };
    expect(runHookBin('subagent-stop', subagent, hookEnv(project, { HOME: home })).stdout).toBe('');
    // The log folder is a file: no marker can be made, so nothing is said (never twice).
    const logs = join(project.dir, 'no-logs');
    writeFileSync(logs, '');
    const run = runHookBin(
      'subagent-stop',
      fixture('stop.json', project),
      hookEnv(project, { HOME: home, AGENT_SESSION_LOG_DIR: logs }),
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('robustness', () => {
  it('handles a very large prompt (4 MB) and unknown extra fields', async () => {
    const state = await parked('Explore', 'a4d2c8f1e0b3a297');
    const payload = fixture('pre-tool-use-agent.json', project) as { tool_input: Record<string, unknown> };
    const big = {
      ...payload,
      future_field: { nested: [1, 2, 3] },
      tool_input: { ...payload.tool_input, prompt: 'x'.repeat(4 * 1024 * 1024) },
    };
    const run = runHookBin('pre-delegate', big, hookEnv(project));
    expect(run.status).toBe(0);
    expect(contextOf(run)).toContain(state.agent_id);
  });

  it('keeps every answer under 10,000 characters, even with huge metadata and messages', async () => {
    const sessions = project.sessions();
    const state = await sessions.create({
      agent_name: 'Explore',
      purpose: 'test',
      metadata: { findings: 'f'.repeat(50_000), other: 'o'.repeat(50_000) },
    });
    await sessions.update(state.agent_id, { phase: 'approval', error: 'e'.repeat(50_000) });
    await sessions.linkClaude(state.agent_id, { agent_id: 'def456', stopped: true, last_message: 'm'.repeat(50_000) });
    for (let i = 0; i < 40; i++)
      await sessions.update(state.agent_id, { phase: i % 2 === 0 ? 'planning' : 'approval' });
    const run = runHookBin('pre-delegate', fixture('pre-tool-use-agent.json', project), hookEnv(project));
    expect(contextOf(run).length).toBeLessThan(10_000);
    const start = runHookBin(
      'pre-delegate',
      { ...fixture('subagent-start.json', project), agent_type: 'Explore' },
      hookEnv(project),
    );
    expect(contextOf(start).length).toBeLessThan(10_000);
  });

  it('fails open: a store that cannot be written prints nothing and exits 0', () => {
    // The store root is a file, so creating a session fails with an I/O error.
    const env = hookEnv(project, { AGENT_SESSION_DIR: join(project.dir, '.claude', 'settings-not-a-dir') });
    writeFileSync(join(project.dir, '.claude', 'settings-not-a-dir'), 'x');
    const run = runHookBin('pre-delegate', fixture('subagent-start.json', project), env);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
  });

  it('takes the store from the payload cwd when CLAUDE_PROJECT_DIR is not set', async () => {
    const env = hookEnv(project);
    delete env.CLAUDE_PROJECT_DIR;
    runHookBin('pre-delegate', fixture('subagent-start.json', project), env);
    expect(await allSessions()).toHaveLength(1);
  });

  it('never creates a payload cwd that does not exist: the usual store is used', async () => {
    const env = hookEnv(project);
    delete env.CLAUDE_PROJECT_DIR;
    const missing = join(project.dir, 'no', 'such', 'folder');
    // Run from inside the project: the usual root is the project's.
    const run = runHookBin(
      'pre-delegate',
      { ...fixture('subagent-start.json', project), cwd: missing },
      env,
      project.dir,
    );
    expect(run.status).toBe(0);
    expect(existsSync(join(project.dir, 'no'))).toBe(false);
    expect(await allSessions()).toHaveLength(1);
  });

  it.each(['pre-delegate', 'subagent-stop'] as const)(
    '%s prints nothing for a Claude Code payload it cannot read whole (over 8 MiB, cut short)',
    async (bin) => {
      const payload = fixture('pre-tool-use-agent.json', project) as { tool_input: Record<string, unknown> };
      const huge = JSON.stringify({
        ...payload,
        tool_input: { ...payload.tool_input, prompt: 'x'.repeat(9 * 1024 * 1024) },
      });
      const whole = JSON.stringify(fixture('subagent-stop-current.json', project));
      // Cut short just past the event name (a payload cut before it cannot be told from a seed one).
      const cut = whole.slice(0, whole.indexOf('"hook_event_name"') + 40);
      for (const input of [huge, cut]) {
        const result = spawnSync(process.execPath, [BINS[bin]], { input, env: hookEnv(project), encoding: 'utf8' });
        expect(result.status).toBe(0);
        expect(result.stdout).toBe('');
        expect(result.stderr).toBe('');
      }
      expect(await allSessions()).toHaveLength(0);
    },
  );
});
