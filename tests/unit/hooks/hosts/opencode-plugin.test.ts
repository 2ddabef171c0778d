// opencodePlugin without opencode: its hooks called as opencode 1.18.33 calls them (the payloads of
// tests/fixtures/opencode/), a stand-in of its client's `session.get`, on a file store in a temp folder. The real
// opencode: tests/host/opencode-session.host.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  failureOf,
  opencodePlugin,
  taskResult,
  type OpencodeClient,
  type OpencodeHooks,
  type OpencodePart,
} from '../../../../src/hooks/hosts/opencode-plugin';
import { openStore } from '../../../../src/app/library';
import { processMark } from '../../../../src/platform/lock';
import type { SessionState } from '../../../../src/core/state';

const AGENT = 'terraform-architect';
const MAIN = 'ses_main0000000000000000001';
const CHILD = 'ses_child000000000000000001';

let base: string;
let dir: string;
const env = () => ({ PATH: process.env.PATH, HOME: base });
/** The child sessions the stand-in client says opencode still has. */
let known: Set<string>;
const client: OpencodeClient = {
  session: {
    get: async ({ path }) => (known.has(path.id) ? { data: { id: path.id } } : { data: undefined }),
  },
};

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-session-opencode-unit-'));
  dir = join(base, 'project');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  known = new Set();
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

const plugin = (withClient: OpencodeClient | undefined = client): Promise<OpencodeHooks> =>
  opencodePlugin(
    { directory: dir, worktree: dir, ...(withClient === undefined ? {} : { client: withClient }) },
    {
      env: env(),
    },
  );

async function states(): Promise<SessionState[]> {
  const sessions = await openStore({ cwd: dir, env: env() });
  try {
    return (await sessions.list()).flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
  } finally {
    await sessions.close();
  }
}

async function setPhase(id: string, phase: string): Promise<void> {
  const sessions = await openStore({ cwd: dir, env: env() });
  try {
    await sessions.update(id, { phase: phase as never });
  } finally {
    await sessions.close();
  }
}

/** A task call as opencode runs it: before (args may be rewritten), the child learnt, after (or a failure). */
async function taskCall(hooks: OpencodeHooks, callID: string, args: Record<string, unknown> = {}) {
  const output: { args: Record<string, unknown> } = {
    args: { description: 'plan', prompt: 'Plan the change.', subagent_type: AGENT, ...args },
  };
  await hooks['tool.execute.before']({ tool: 'task', sessionID: MAIN, callID }, output);
  return output.args;
}
const running = (hooks: OpencodeHooks, callID: string, child: string, status = 'running', error?: string) =>
  hooks.event({
    event: {
      type: 'message.part.updated',
      properties: {
        part: {
          type: 'tool',
          tool: 'task',
          callID,
          state: { status, metadata: { sessionId: child, parentSessionId: MAIN }, ...(error ? { error } : {}) },
        },
      },
    },
  });
const after = (hooks: OpencodeHooks, callID: string, child: string, reply: string) =>
  hooks['tool.execute.after'](
    { tool: 'task', sessionID: MAIN, callID, args: { subagent_type: AGENT } },
    {
      output: `<task id="${child}" state="completed">\n<task_result>\n${reply}\n</task_result>\n</task>`,
      metadata: { sessionId: child, parentSessionId: MAIN },
    },
  );

it('makes an opencode session for a task call, its context before the prompt, the child and the stop on its link', async () => {
  const hooks = await plugin();
  const args = await taskCall(hooks, 'call_1');
  const [state] = await states();
  // The task call's own words kept as its task (issue 44 item 7: schema 14, above opencode's 11).
  expect(state).toMatchObject({ host: 'opencode', schema_version: 14, agent_name: AGENT, phase: 'initializing' });
  expect(state!.task).toMatchObject({ description: 'plan', prompt: 'Plan the change.' });
  expect(args.prompt).toMatch(new RegExp(`session ${state!.agent_id}[\\s\\S]*\\n\\nPlan the change\\.$`));
  expect(args.task_id).toBeUndefined();
  await running(hooks, 'call_1', CHILD);
  await after(hooks, 'call_1', CHILD, 'Planned; waiting.');
  const [stopped] = await states();
  expect(stopped!.claude).toMatchObject({
    agent_id: expect.stringMatching(/^call_1@\d+\./),
    session_id: CHILD,
    last_message: 'Planned; waiting.',
    stopped_at: expect.any(String),
  });
  const log = readFileSync(join(dir, '.claude', 'logs', 'opencode.log'), 'utf8');
  expect(log).toMatch(/opencode event="SubagentStart" created /);
  expect(log).toMatch(/opencode event="SubagentStop" linked stop="abandoned"/);
});

it.each([
  ['opencode still has the child: task_id continues it', true, CHILD],
  ['the child is gone: a primed new child', false, undefined],
])('resumes a parked session when %s', async (_case, exists, taskId) => {
  const hooks = await plugin();
  await taskCall(hooks, 'call_1');
  await running(hooks, 'call_1', CHILD);
  const [made] = await states();
  await setPhase(made!.agent_id, 'approval');
  await after(hooks, 'call_1', CHILD, 'Waiting for the approval.');
  if (exists) known.add(CHILD);
  const args = await taskCall(hooks, 'call_2');
  expect(args.task_id).toBe(taskId);
  expect(args.prompt).toContain(`resumes session ${made!.agent_id}`);
  const [resumed, ...others] = await states();
  expect(others).toEqual([]);
  expect(resumed!.claude).toMatchObject({
    agent_id: expect.stringMatching(/^call_2@/),
    resumed_from: { agent_id: expect.stringMatching(/^call_1@/) },
  });
});

it('a task call of another task gets a new session: the one parked in approval keeps its task and child (issue 44 item 7)', async () => {
  const hooks = await plugin();
  await taskCall(hooks, 'call_1');
  await running(hooks, 'call_1', CHILD);
  const [made] = await states();
  await setPhase(made!.agent_id, 'approval');
  await after(hooks, 'call_1', CHILD, 'Waiting for the approval.');
  known.add(CHILD);
  const args = await taskCall(hooks, 'call_2', { description: 'audit', prompt: 'Audit every log file for errors.' });
  expect(args.task_id).toBeUndefined();
  expect(args.prompt).not.toContain(`resumes session ${made!.agent_id}`);
  const all = await states();
  expect(all).toHaveLength(2);
  const parked = all.find((state) => state.agent_id === made!.agent_id)!;
  const other = all.find((state) => state.agent_id !== made!.agent_id)!;
  expect(parked).toMatchObject({
    phase: 'approval',
    task: { description: 'plan', passed_over: { description: 'audit' } },
  });
  expect(parked.claude?.agent_id).toMatch(/^call_1@/);
  expect(other.task).toMatchObject({ description: 'audit', passed_over_id: made!.agent_id });
  // Its own task again: resumed, its child continued.
  const again = await taskCall(hooks, 'call_3', { prompt: 'Plan the change, approved.' });
  expect(again.task_id).toBe(CHILD);
  expect(again.prompt).toContain(`resumes session ${made!.agent_id}`);
});

it("keeps a task_id the model gave, and never takes another host's parked session", async () => {
  const sessions = await openStore({ cwd: dir, env: env() });
  const claude = await sessions.create({ agent_name: AGENT, purpose: 'claude_code_subagent' });
  await sessions.update(claude.agent_id, { phase: 'approval' });
  await sessions.close();
  const hooks = await plugin();
  const args = await taskCall(hooks, 'call_1', { task_id: 'ses_given' });
  expect(args.task_id).toBe('ses_given');
  expect(args.prompt).not.toContain(claude.agent_id);
  const mine = (await states()).filter((s) => s.host === 'opencode');
  expect(mine).toHaveLength(1);
  expect(mine[0]!.claude?.session_id).toBe('ses_given');
  expect((await states()).find((s) => s.agent_id === claude.agent_id)).toMatchObject({ phase: 'approval' });
});

it("records a child's API error as its session's interruption (the part's error after it changes nothing)", async () => {
  const hooks = await plugin();
  await taskCall(hooks, 'call_1');
  await running(hooks, 'call_1', CHILD);
  await hooks.event({
    event: {
      type: 'session.error',
      properties: {
        sessionID: CHILD,
        error: { name: 'APIError', data: { message: 'Too many requests', statusCode: 429, isRetryable: true } },
      },
    },
  });
  await running(hooks, 'call_1', CHILD, 'error', 'Subagent failed (task_id: x): Too many requests');
  const [state] = await states();
  expect(state!.interruption).toMatchObject({ count: 1, error: 'rate_limit', message: 'Too many requests' });
  expect(state!.claude?.stopped_at).toEqual(expect.any(String));
});

it('interrupts a task whose part failed with no session error (a rejected permission): kind unknown', async () => {
  const hooks = await plugin();
  await taskCall(hooks, 'call_1');
  await running(hooks, 'call_1', CHILD);
  await running(hooks, 'call_1', CHILD, 'error', 'Subagent failed: The user rejected permission');
  const [state] = await states();
  expect(state!.interruption).toMatchObject({ count: 1, error: 'unknown' });
});

it.each([
  ['a process that is gone: interrupted (run_stopped), then resumed', 'gone', true],
  ['this very process: left running (its own task in flight)', 'self', false],
  ['a process still alive: left running', 'alive', false],
])('finds a session left running by %s', async (_case, owner, carried) => {
  const sessions = await openStore({ cwd: dir, env: env() });
  const gone = spawnSync(process.execPath, ['-e', '']).pid!;
  const mark = { gone: `${gone}.1`, self: processMark(), alive: `${process.ppid}.-` }[
    owner as 'gone' | 'self' | 'alive'
  ];
  const made = await sessions.create({ agent_name: AGENT, purpose: 'claude_code_subagent' });
  await sessions.close();
  // The session as an opencode run leaves it when killed while its sub-agent worked: linked, never stopped.
  const hooks = await opencodePlugin({ directory: dir, client }, { env: env(), processMark: mark });
  await taskCall(hooks, 'call_0');
  const [linked] = (await states()).filter((s) => s.host === 'opencode');
  await setPhase(linked!.agent_id, 'executing');
  const later = await plugin();
  const args = await taskCall(later, 'call_1');
  const after = (await states()).find((s) => s.agent_id === linked!.agent_id)!;
  if (carried) {
    expect(after.interruption).toMatchObject({ count: 1, error: 'run_stopped', carried_on: 1 });
    expect(args.prompt).toContain(`resumes session ${linked!.agent_id}`);
    expect(args.prompt).toContain('was interrupted by its host run being stopped while it worked');
  } else {
    expect(after.interruption).toBeUndefined();
    expect(after.claude?.agent_id).toBe(`call_0@${mark}`);
  }
  expect(made.agent_id).not.toBe(linked!.agent_id);
});

it("allows a sub-agent's own recording command when opencode asks (replies once), and nothing else", async () => {
  const replies: unknown[] = [];
  const hooks = await plugin({
    ...client,
    postSessionIdPermissionsPermissionId: async (options) => {
      replies.push(options);
      return { data: true };
    },
  });
  const args = await taskCall(hooks, 'call_1');
  await running(hooks, 'call_1', CHILD);
  const [state] = await states();
  const command = /^- phase: (.+) --phase <[^>]*>$/m.exec(String(args.prompt))?.[1];
  expect(command).toContain(`update ${state!.agent_id}`);
  const asked = (id: string, fields: Record<string, unknown>) =>
    hooks.event({
      event: {
        type: 'permission.asked',
        properties: { id, sessionID: CHILD, permission: 'bash', patterns: ['*'], always: ['*'], ...fields },
      },
    });
  await asked('per_1', { metadata: { command: `${command} --phase approval` } });
  await asked('per_2', { metadata: { command: 'rm -rf /' } });
  await asked('per_3', { permission: 'edit', metadata: { command: `${command} --phase approval` } });
  await asked('per_4', { sessionID: 'ses_other', metadata: { command: `${command} --phase approval` } });
  expect(replies).toEqual([{ path: { id: CHILD, permissionID: 'per_1' }, body: { response: 'once' } }]);
});

it("tells the main agent's prompt the parked sessions (a text part added), never a sub-agent's", async () => {
  const hooks = await plugin();
  await taskCall(hooks, 'call_1');
  const [made] = await states();
  await setPhase(made!.agent_id, 'approval');
  await after(hooks, 'call_1', CHILD, 'Waiting.');
  const first: OpencodePart = { id: 'prt_1', type: 'text', text: 'go on', sessionID: MAIN, messageID: 'msg_1' };
  const main = { parts: [first] };
  await hooks['chat.message']({ sessionID: MAIN }, main);
  expect(main.parts).toHaveLength(2);
  expect(main.parts[1]).toMatchObject({ id: 'prt_1as', type: 'text', sessionID: MAIN, messageID: 'msg_1' });
  expect(main.parts[1]!.text).toContain(`session ${made!.agent_id}, phase approval`);
  const child = { parts: [{ ...first }] };
  await hooks['chat.message']({ sessionID: CHILD, agent: AGENT }, child);
  expect(child.parts).toHaveLength(1);
});

it('fails open: a client that throws, a task with no agent, other tools and unknown events change nothing', async () => {
  const hooks = await plugin({
    session: {
      get: () => Promise.reject(new Error('server gone')),
    },
  });
  const none = { args: { prompt: 'x' } as Record<string, unknown> };
  await hooks['tool.execute.before']({ tool: 'task', sessionID: MAIN, callID: 'call_0' }, none);
  await hooks['tool.execute.before']({ tool: 'bash', sessionID: MAIN, callID: 'call_b' }, { args: { command: 'ls' } });
  await hooks.event({ event: { type: 'session.error', properties: { sessionID: 'ses_unknown' } } });
  await hooks.event({ event: { type: 'message.part.updated', properties: 'not an object' } });
  expect(none.args).toEqual({ prompt: 'x' });
  expect(await states()).toEqual([]);
  const args = await taskCall(hooks, 'call_1');
  expect(args.task_id).toBeUndefined();
  expect(await states()).toHaveLength(1);
});

it.each([
  [
    { name: 'APIError', data: { statusCode: 429, message: 'slow down' } },
    { kind: 'rate_limit', message: 'slow down' },
  ],
  [{ data: { statusCode: 503 } }, { kind: 'overloaded' }],
  [{ data: { statusCode: 529 } }, { kind: 'overloaded' }],
  [{ data: { statusCode: 500 } }, { kind: 'server_error' }],
  [{ data: { statusCode: 401 } }, { kind: 'authentication_failed' }],
  [{ data: { statusCode: 404 } }, { kind: 'model_not_found' }],
  [{ data: { statusCode: 400, message: 'bad' } }, { kind: 'invalid_request', message: 'bad' }],
  [{ name: 'ProviderAuthError' }, { kind: 'unknown', message: 'ProviderAuthError' }],
  [undefined, { kind: 'unknown' }],
])('failureOf(%j) is %j', (error, failure) => {
  expect(failureOf(error)).toEqual(failure);
});

it.each([
  ['<task id="ses_1" state="completed">\n<task_result>\nDone.\n</task_result>\n</task>', 'Done.'],
  ['plain output', 'plain output'],
  ['<task_result>\n  \n</task_result>', undefined],
  [42, undefined],
])('taskResult(%j) is %j', (output, result) => {
  expect(taskResult(output)).toBe(result);
});
