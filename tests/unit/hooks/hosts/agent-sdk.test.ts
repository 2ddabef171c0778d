// agentSessionHooks without the SDK: its callbacks called as the SDK calls them (payloads as 0.3.332 sends them), its
// tool through a stand-in of the SDK's `tool`, on a file store in a temp folder. The real SDK: tests/host/sdk.host.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentSessionHooks, type AgentSessionHooks } from '../../../../src/hooks/hosts/agent-sdk';
import { openStore } from '../../../../src/app/library';
import { BIN } from '../../../helpers';
import { runOutsideAgent } from '../../../support/outside-agent';

const TOOL = 'mcp__agent-session__record';
const AGENT = 'terraform-architect';
const CLAUDE_AGENT = 'a1111111111111111';

interface StandIn {
  readonly name: string;
  readonly shape: Record<string, unknown>;
  readonly handler: (args: unknown, extra: unknown) => Promise<{ content: { text: string }[]; isError?: boolean }>;
}

let base: string;
let dir: string;
let hooks: AgentSessionHooks;
let server: { name: string; alwaysLoad?: boolean; tools: StandIn[] };
// The app's and the user's shell are one user's: one data folder, where the key that seals decisions is.
const env = () => ({ PATH: process.env.PATH, HOME: base, XDG_DATA_HOME: join(base, 'data') });

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'agent-session-sdk-unit-'));
  dir = join(base, 'project');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  hooks = await agentSessionHooks({
    cwd: dir,
    env: env(),
    sdk: {
      tool: (name, _description, shape, handler) => ({ name, shape, handler }),
      createSdkMcpServer: (options) => options,
    },
  });
  server = hooks.mcpServers['agent-session'] as typeof server;
});

afterEach(async () => {
  await hooks.close();
  rmSync(base, { recursive: true, force: true });
});

const fire = (event: string, fields: Record<string, unknown>, toolUseId?: string) => {
  const group = hooks.hooks[event]?.[0];
  if (group === undefined) throw new Error(`no hook for ${event}`);
  return group.hooks[0]!({ hook_event_name: event, session_id: 's1', cwd: dir, ...fields }, toolUseId, {
    signal: new AbortController().signal,
  });
};
const start = (agentId = CLAUDE_AGENT) => fire('SubagentStart', { agent_id: agentId, agent_type: AGENT });
const toolCall = (toolUseId: string, fields: Record<string, unknown> = { agent_id: CLAUDE_AGENT, agent_type: AGENT }) =>
  fire('PreToolUse', { tool_name: TOOL, tool_input: {}, tool_use_id: toolUseId, ...fields });
/** What the SDK (0.3.332) hands a tool handler besides its input. */
const extraOf = (toolUseId: string) => ({
  signal: new AbortController().signal,
  _meta: { 'claudecode/toolUseId': toolUseId, progressToken: 1 },
  requestId: 1,
});
const record = (args: Record<string, unknown>, toolUseId: string) => server.tools[0]!.handler(args, extraOf(toolUseId));

async function stored(): Promise<Awaited<ReturnType<Awaited<ReturnType<typeof openStore>>['list']>>> {
  const sessions = await openStore({ cwd: dir, env: env() });
  try {
    return await sessions.list();
  } finally {
    await sessions.close();
  }
}
const only = async () => {
  const [entry, ...rest] = await stored();
  if (entry?.kind !== 'valid' || rest.length > 0) throw new Error('expected one valid session');
  return entry.state;
};

it("wires the command hooks' events and matchers, and the tool's server (never deferred)", () => {
  expect(Object.keys(hooks.hooks).sort()).toEqual(
    [
      'PermissionRequest',
      'PostToolUse',
      'PreToolUse',
      'SessionStart',
      'StopFailure',
      'SubagentStart',
      'SubagentStop',
      'UserPromptSubmit',
    ].sort(),
  );
  expect(hooks.hooks.PreToolUse![0]!.matcher).toBe(`^(Task|Agent|SendMessage|${TOOL})$`);
  expect(hooks.recordTool).toBe(TOOL);
  expect(server).toMatchObject({ name: 'agent-session', alwaysLoad: true });
  expect(server.tools.map((t) => t.name)).toEqual(['record']);
  expect(Object.keys(server.tools[0]!.shape).sort()).toEqual(['error', 'metadata', 'phase']);
  expect(hooks.root).toBe(join(dir, '.claude', 'session'));
});

it("gives a started sub-agent its session with the tool to record it (no shell command), logged as the hooks' lines", async () => {
  const answer = (await start()) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(answer.hookSpecificOutput.hookEventName).toBe('SubagentStart');
  const context = answer.hookSpecificOutput.additionalContext;
  expect(context).toContain(`- phase: ${TOOL} {"phase": "<`);
  expect(context).not.toContain(' update ');
  expect((await only()).claude?.agent_id).toBe(CLAUDE_AGENT);
  const log = readFileSync(join(dir, '.claude', 'logs', 'agent-sdk.log'), 'utf8');
  expect(log).toMatch(/sdk agent-sdk event="SubagentStart" created agent="terraform-architect"/);
});

it('lets the linked sub-agent record its phase and metadata without a prompt', async () => {
  await start();
  expect(await toolCall('toolu_1')).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: expect.stringContaining(CLAUDE_AGENT),
    },
  });
  const result = await record({ phase: 'approval', metadata: { plan: '3 buckets' } }, 'toolu_1');
  expect(result.isError).toBeUndefined();
  expect(result.content[0]!.text).toMatch(/^Updated session agent-\S+: phase approval$/);
  const state = await only();
  expect({ phase: state.phase, metadata: state.metadata }).toEqual({
    phase: 'approval',
    metadata: { plan: '3 buckets' },
  });
});

it('records nothing for a call no linked sub-agent made (the main agent, an unknown call)', async () => {
  await start();
  expect(await toolCall('toolu_main', {})).toEqual({});
  const main = await record({ phase: 'approval' }, 'toolu_main');
  expect(main.isError).toBe(true);
  expect((await record({ phase: 'approval' }, 'toolu_unknown')).isError).toBe(true);
  expect((await only()).phase).toBe('initializing');
});

it('records nothing once the sub-agent stopped, nor for an agent never linked', async () => {
  await start();
  await fire('SubagentStop', { agent_id: CLAUDE_AGENT, agent_type: AGENT, last_assistant_message: 'done' });
  expect(await toolCall('toolu_late')).toEqual({});
  expect((await record({ phase: 'planning' }, 'toolu_late')).isError).toBe(true);
  expect(await toolCall('toolu_other', { agent_id: 'a2222222222222222', agent_type: AGENT })).toEqual({});
  expect((await only()).phase).toBe('abandoned');
});

it("answers the phase machine's refusal as a tool error with its code, recording nothing", async () => {
  await start();
  await toolCall('toolu_1');
  await record({ phase: 'approval' }, 'toolu_1');
  await toolCall('toolu_2');
  const refused = await record({ phase: 'initializing' }, 'toolu_2');
  expect(refused.isError).toBe(true);
  expect(refused.content[0]!.text).toContain('(E_ILLEGAL_TRANSITION)');
  expect((await only()).phase).toBe('approval');
});

it('answers nothing to what is not a payload, and nothing once closed', async () => {
  const callback = hooks.hooks.SubagentStart![0]!.hooks[0]!;
  expect(await callback('not a payload', undefined, { signal: new AbortController().signal })).toEqual({});
  await hooks.close();
  expect(await start()).toEqual({});
  expect(await stored()).toEqual([]);
});

it('interrupts, when told the query was stopped, the sessions of sub-agents that started and never stopped', async () => {
  await start();
  await start('a3333333333333333');
  await fire('SubagentStop', { agent_id: 'a3333333333333333', agent_type: AGENT, last_assistant_message: 'done' });
  expect(await hooks.interrupted('another-query')).toBe(0);
  expect(await hooks.interrupted('s1')).toBe(1);
  const states = (await stored()).flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
  const of = (agent: string) => states.find((state) => state.claude?.agent_id === agent);
  expect({ phase: of(CLAUDE_AGENT)?.phase, interruption: of(CLAUDE_AGENT)?.interruption }).toMatchObject({
    phase: 'initializing',
    interruption: { error: 'app_stopped', waiting: true, count: 1 },
  });
  // The one that stopped was judged by the stop policy (still initializing: abandoned), not interrupted.
  expect({ phase: of('a3333333333333333')?.phase, interruption: of('a3333333333333333')?.interruption }).toEqual({
    phase: 'abandoned',
    interruption: undefined,
  });
  expect(await hooks.interrupted()).toBe(0);
});

it('interrupts the sub-agents still running when it is closed', async () => {
  await start();
  await hooks.close();
  expect((await only()).interruption).toMatchObject({ error: 'app_stopped', waiting: true });
});

it('lists a parked session before a delegation and offers its resume, naming the tool its agent records with', async () => {
  await start();
  await toolCall('toolu_1');
  await record({ phase: 'approval' }, 'toolu_1');
  await fire('SubagentStop', { agent_id: CLAUDE_AGENT, agent_type: AGENT, last_assistant_message: 'Waiting.' });
  const parked = await only();
  const listed = (await fire('UserPromptSubmit', { prompt: 'I approve' })) as {
    hookSpecificOutput: { additionalContext: string };
  };
  expect(listed.hookSpecificOutput.additionalContext).toContain(`session ${parked.agent_id}, phase approval`);
  const offered = (await fire('PreToolUse', {
    tool_name: 'Agent',
    tool_input: { subagent_type: AGENT, prompt: 'Apply it', description: 'apply' },
    tool_use_id: 'toolu_agent',
  })) as { hookSpecificOutput: { additionalContext: string } };
  expect(offered.hookSpecificOutput.additionalContext).toContain(`- Session id: ${parked.agent_id}`);
  expect(offered.hookSpecificOutput.additionalContext).toContain(`with its tool ${TOOL}`);
  expect(offered.hookSpecificOutput.additionalContext).not.toContain(' update ');
});

describe('canUseTool (issue 33)', () => {
  const INPUT = { command: 'touch PERM-FILE', description: 'make it' };
  const signal = new AbortController().signal;

  it("parks a sub-agent's request nobody can answer, and leaves the main agent's to the app's fallback", async () => {
    await start();
    const [entry] = await stored();
    const id = entry!.kind === 'valid' ? entry!.state.agent_id : '';
    const denied = await hooks.canUseTool('Bash', INPUT, { signal, agentID: CLAUDE_AGENT });
    expect(denied).toMatchObject({ behavior: 'deny', message: expect.stringContaining(`approve ${id}`) });
    const [parked] = await stored();
    expect(parked).toMatchObject({ kind: 'valid', state: { phase: 'approval' } });
    const fallback = jest.fn(async () => ({ behavior: 'allow' as const, updatedInput: {} }));
    expect(await hooks.canUseTool('Bash', INPUT, { signal }, fallback)).toEqual({
      behavior: 'allow',
      updatedInput: {},
    });
    expect(fallback).toHaveBeenCalledTimes(1);
    expect(await hooks.canUseTool('Bash', INPUT, { signal })).toMatchObject({ behavior: 'deny' });
  });

  /** The parked agent stopped, the user approved its request at their own shell, the next agent started. */
  const approvedAndResumed = async (next: string): Promise<void> => {
    await fire('SubagentStop', { agent_id: CLAUDE_AGENT, agent_type: AGENT });
    const [parked] = await stored();
    const id = parked!.kind === 'valid' ? parked!.state.agent_id : '';
    // As the user decides it, at their own shell (the test runner may run inside an agent's).
    expect(runOutsideAgent(BIN.cli, ['approve', id], { cwd: dir, env: env() }).status).toBe(0);
    await start(next);
  };

  it('allows the approved call once to the agent that resumes the session', async () => {
    await start();
    await hooks.canUseTool('Bash', INPUT, { signal, agentID: CLAUDE_AGENT });
    const next = 'a2222222222222222';
    await approvedAndResumed(next);
    expect(await hooks.canUseTool('Bash', { ...INPUT }, { signal, agentID: next })).toEqual({
      behavior: 'allow',
      updatedInput: INPUT,
    });
    expect(await hooks.canUseTool('Bash', INPUT, { signal, agentID: next })).toMatchObject({ behavior: 'deny' });
  });

  // The real SDK asks both canUseTool and the PermissionRequest hook about one call, with one tool use id
  // (tests/host/sdk.host.ts): decided twice, the grant spent by the first was parked again by the second.
  it('decides a call once when the SDK asks both canUseTool and the PermissionRequest hook, in either order', async () => {
    const ask = (agentId: string, toolUseId: string) =>
      fire(
        'PermissionRequest',
        { agent_id: agentId, agent_type: AGENT, tool_name: 'Bash', tool_input: INPUT },
        toolUseId,
      );
    await start();
    const [both] = await Promise.all([
      hooks.canUseTool('Bash', INPUT, { signal, agentID: CLAUDE_AGENT, toolUseID: 'toolu_1' }),
      ask(CLAUDE_AGENT, 'toolu_1'),
    ]);
    expect(both).toMatchObject({ behavior: 'deny' });
    const next = 'a2222222222222222';
    await approvedAndResumed(next);
    // canUseTool first (as the real SDK), then the hook: one grant spent, nothing parked again.
    expect(await hooks.canUseTool('Bash', INPUT, { signal, agentID: next, toolUseID: 'toolu_2' })).toMatchObject({
      behavior: 'allow',
    });
    expect(await ask(next, 'toolu_2')).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'allow' } } });
    // The hook first, then canUseTool: the same (a new call of the same input is a new request, parked).
    expect(await ask(next, 'toolu_3')).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'deny' } } });
    expect(await hooks.canUseTool('Bash', INPUT, { signal, agentID: next, toolUseID: 'toolu_3' })).toMatchObject({
      behavior: 'deny',
    });
    const [after] = await stored();
    const requests = after!.kind === 'valid' ? (after!.state.permission_requests ?? []) : [];
    expect(requests.map((r) => r.status)).toEqual(['spent', 'pending']);
  });
});
