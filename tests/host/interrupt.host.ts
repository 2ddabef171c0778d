// Issue 42 item 3 with the real Claude Code (the newest build, 2.1.335 or later: older ones have no Interrupt event),
// installed as a newcomer installs agent-session (the plugin): in a terminal (tmux), the user asks for a plan, the
// terraform architect starts in the foreground and records its phase, and while it works on (its next request held
// by the scripted model) the user presses Esc. Claude Code aborts the sub-agent (no SubagentStop, no StopFailure) and
// fires Interrupt: its session says the user stopped it. The next delegation (`claude -p`) carries it on: the new
// sub-agent is told so, picks the work up and completes; one session throughout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGENT_TYPE,
  compareVersions,
  debugHookRan,
  findClaude,
  hookLog,
  makeHostProject,
  runClaude,
  runInteractive,
  storeSessions,
  stringsIn,
  SUBAGENT_MARKER,
  type StoredSession,
} from './claude-host';
import { calledTools, startModelServer, toolResults, type MessagesBody, type Reply } from './model-server';
import { subagentContext } from './scenario';

const work = mkdtempSync(join(tmpdir(), 'agent-session-interrupt-host-'));
afterAll(() => {
  if (process.env.AGENT_SESSION_HOST_KEEP !== '1') rmSync(work, { recursive: true, force: true });
});

const text = (value: string): Reply => ({ blocks: [{ type: 'text', text: value }] });
const toolUse = (name: string, input: Record<string, unknown>): Reply => ({
  blocks: [{ type: 'tool_use', name, input }],
});

/** What the sub-agent's first request held as our SubagentStart context, per run. */
const contexts = new Map<string, string>();

/**
 * The model: the main agent delegates to the terraform architect once per run, then answers with text. The
 * sub-agent reads our SubagentStart context: told it carries on an interrupted session, it records `executing` and
 * finishes; otherwise it records `planning` and its next request is held (a model still writing) until the user's
 * Esc aborts it.
 */
function script(body: MessagesBody, run: string): { role: string; reply: Reply } {
  if (stringsIn(body.system).some((s) => s.includes(SUBAGENT_MARKER))) {
    const context = subagentContext(body.messages);
    if (context === undefined) return { role: 'subagent', reply: text('No agent-session context reached me.') };
    if (!contexts.has(run)) contexts.set(run, context.text);
    const command = /^- phase: (.+?) --phase </m.exec(context.text)?.[1];
    if (command === undefined) return { role: 'subagent', reply: text('No recording command in my context.') };
    const carriesOn = /was interrupted by/.test(context.text);
    const results = toolResults(body);
    if (results.length === 0)
      return {
        role: 'subagent',
        reply: toolUse('Bash', {
          command: `${command} --phase ${carriesOn ? 'executing' : 'planning'}`,
          description: 'Record the session phase',
        }),
      };
    if (!carriesOn) return { role: 'subagent-held', reply: { ...text('Plan drafted.'), delayMs: 180_000 } };
    return { role: 'subagent', reply: text('Carried on after the interruption: 3 buckets created.') };
  }
  if (!(body.tools ?? []).some((t) => t.name === 'Agent')) return { role: 'other', reply: text('OK.') };
  if (!calledTools(body).includes('Agent'))
    return {
      role: 'main',
      reply: toolUse('Agent', {
        description: 'Terraform buckets',
        prompt: 'Plan adding 3 storage buckets, then apply them.',
        subagent_type: AGENT_TYPE,
        run_in_background: false,
      }),
    };
  return { role: 'main', reply: text('The terraform architect is done.') };
}

function only(sessions: StoredSession[]): StoredSession {
  expect(sessions.map((s) => `${s.agent_name} ${s.phase}`)).toHaveLength(1);
  return sessions[0]!;
}

it('the user’s Esc while a foreground sub-agent works: its session says so, and the next delegation carries it on', async () => {
  const claude = findClaude('latest');
  if (compareVersions(claude.version, '2.1.335') < 0)
    throw new Error(`Expected the newest Claude Code to fire Interrupt (2.1.335 or later), got ${claude.version}`);
  let run = 'esc';
  const server = await startModelServer((body, request) => script(body, request.run));
  try {
    const project = makeHostProject('plugin', claude);
    server.setRun(run);
    const held = () => server.requests.some((r) => r.run === 'esc' && r.role === 'subagent-held');
    const interrupted = () => storeSessions(project).some((s) => s.interruption?.waiting === true);
    const esc = await runInteractive(
      claude.path,
      project,
      server.url,
      run,
      'Plan the 3 storage buckets with the terraform architect.',
      interrupted,
      120_000,
      // A foreground sub-agent: 2.1.337 backgrounds an interactive Agent call otherwise.
      { CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: '1' },
      held,
    );
    const log = hookLog(project).join('\n');
    expect({ timedOut: esc.timedOut, log }).toMatchObject({ timedOut: false });
    expect(debugHookRan(esc, 'Interrupt', 'subagent-stop')).toBe(true);
    const cut = only(storeSessions(project));
    // What the sub-agent's recording command answered and the dialogs the user saw: a phase left at `initializing`
    // (seen once in CI, on Node 24) is one of these, and the failure shows which.
    const recorded = server.requests
      .filter((r) => r.run === 'esc' && r.role === 'subagent-held')
      .flatMap((r) => toolResults(r.body as MessagesBody));
    expect({ phase: cut.phase, prompts: esc.prompts, recorded, log }).toMatchObject({ phase: 'planning', prompts: [] });
    expect(cut).toMatchObject({
      agent_name: AGENT_TYPE,
      phase: 'planning',
      interruption: { waiting: true, error: 'user_stopped', count: 1 },
    });
    expect(cut.interruption.message).toContain('source user, reason stop');
    expect(cut.claude.stopped_at).toEqual(expect.any(String));

    run = 'carry-on';
    server.setRun(run);
    const next = await runClaude(claude.path, project, server.url, run, 'Have the terraform architect carry on.');
    expect(next.status).toBe(0);
    expect(contexts.get(run)).toContain(`resumes session ${cut.agent_id}`);
    expect(contexts.get(run)).toContain('interrupted by the user stopping the main turn (user_stopped)');
    const done = only(storeSessions(project));
    expect(done.agent_id).toBe(cut.agent_id);
    expect(done.phase).toBe('completed');
    expect(done.interruption).toMatchObject({ count: 1, carried_on: 1, waiting: false });
    expect(done.history.map((h: { event?: string }) => h.event ?? '-')).toEqual(
      expect.arrayContaining(['interrupted', 'resume']),
    );
  } finally {
    await server.close();
  }
});
