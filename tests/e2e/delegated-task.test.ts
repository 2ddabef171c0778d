import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, run } from '../helpers';
import { bashPermissionRequest, headlessSubagents } from '../support/claude-subagents';
import { runOutsideAgent } from '../support/outside-agent';

// Issue 44 item 7 through the built bins, as Claude Code 2.1.337 drives them: a parked session keeps the task its
// delegation gave (PreToolUse(Agent)'s description and prompt, recorded from PostToolUse and PreToolUse), `show`,
// `pending`, `list` and their JSON show it, and a delegation of another task does not take a session that holds the
// user's grant: it gets a new session, the main agent is told both tasks, and the grant stays with its own task.
let home: string;
let dir: string;
let payloadBase: Record<string, string>;
const SESSION = '7ccfba03-d630-41b6-9f13-eee6ce38c258';
const FIRST = 'a1111111111111111';
const OTHER = 'a2222222222222222';
const AGAIN = 'a3333333333333333';
const TYPE = 'continue-tester';
const INPUT = { command: 'touch PERM-FILE && echo "ran"', description: 'scripted command' };
const FIXTURE = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'claude-code', 'pre-tool-use-agent-2.1.337.json'), 'utf8'),
) as { tool_input: Record<string, unknown> };
// The fixture's own task ("Continue test", "TASK run1: CMD:echo R1-CONTEXT-c64877b9"), run in the background.
const TASK = { ...FIXTURE.tool_input, subagent_type: TYPE, run_in_background: true };
const OTHER_TASK = { ...TASK, description: 'Audit the logs', prompt: 'TASK run2: list every error in logs/' };

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'agent-session-task-'));
  dir = join(home, 'proj');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  payloadBase = headlessSubagents(home, dir, SESSION, TYPE, [FIRST, OTHER, AGAIN]);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const env = () => ({ CLAUDE_PROJECT_DIR: dir, AGENT_SESSION_CONFIG: undefined, HOME: home });
const cli = (args: readonly string[]) =>
  args[0] === 'approve'
    ? runOutsideAgent(BIN.cli, args, { cwd: dir, env: env() })
    : run(BIN.cli, args, { cwd: dir, env: env() });
const hook = (bin: string, payload: Record<string, unknown>) => {
  const result = run(bin, [], { cwd: dir, env: env(), input: JSON.stringify({ ...payloadBase, ...payload }) });
  expect(result.status).toBe(0);
  return result.stdout.trim() === '' ? null : JSON.parse(result.stdout);
};
const contextOf = (answer: unknown) =>
  (answer as { hookSpecificOutput?: { additionalContext?: string } } | null)?.hookSpecificOutput?.additionalContext ??
  null;
/** One background delegation as Claude Code 2.1.337 fires it: PreToolUse(Agent), SubagentStart, PostToolUse(Agent). */
const delegate = (agent: string, input: Record<string, unknown>) => {
  const offered = contextOf(
    hook(BIN.preDelegate, { hook_event_name: 'PreToolUse', tool_name: 'Agent', tool_input: input, tool_use_id: 't1' }),
  );
  const started = contextOf(
    hook(BIN.preDelegate, { hook_event_name: 'SubagentStart', agent_id: agent, agent_type: TYPE }),
  )!;
  const posted = contextOf(
    hook(BIN.subagentStop, {
      hook_event_name: 'PostToolUse',
      tool_name: 'Agent',
      tool_input: input,
      tool_use_id: 't1',
      tool_response: { status: 'async_launched', agentId: agent },
    }),
  );
  return { offered, started, posted, id: /session (agent-[\w-]+)/.exec(started)![1]! };
};
const ask = (agent: string) =>
  (
    hook(BIN.preDelegate, bashPermissionRequest(agent, TYPE, INPUT)) as {
      hookSpecificOutput: { decision: { behavior: string } };
    } | null
  )?.hookSpecificOutput.decision.behavior;
const stop = (agent: string) =>
  hook(BIN.subagentStop, { hook_event_name: 'SubagentStop', agent_id: agent, agent_type: TYPE });
const stateOf = (id: string) => JSON.parse(cli(['get', id]).stdout);

/** The fixture's delegation parks on a permission request: its session id. */
function parked(): string {
  const { id } = delegate(FIRST, TASK);
  expect(cli(['update', id, '--phase', 'executing']).status).toBe(0);
  expect(ask(FIRST)).toBe('deny');
  stop(FIRST);
  return id;
}

describe('a parked session keeps its task', () => {
  it('is recorded from the real-shaped delegation and shown by show, pending, list and their JSON', () => {
    const id = parked();
    const task = { description: 'Continue test', prompt: 'TASK run1: CMD:echo R1-CONTEXT-c64877b9' };
    expect(stateOf(id)).toMatchObject({ phase: 'approval', schema_version: 14, task });
    const line = 'Continue test: TASK run1: CMD:echo R1-CONTEXT-c64877b9';
    expect(cli(['show', id]).stdout).toMatch(/Task +Continue test: TASK run1: CMD:echo R1-CONTEXT-c64877b9/);
    expect(JSON.parse(cli(['show', id, '--json']).stdout)).toMatchObject({ session: { task } });
    expect(cli(['pending']).stdout).toContain(`  task: ${line}`);
    expect(JSON.parse(cli(['pending', '--json']).stdout)[0]).toMatchObject({ agent_id: id, task: line });
    expect(cli(['list']).stdout).toContain('TASK');
    expect(JSON.parse(cli(['list', '--json']).stdout)[0]).toMatchObject({ agent_id: id, task: line });
    // The parked overview the main agent reads before it delegates.
    const overview = contextOf(hook(BIN.preDelegate, { hook_event_name: 'UserPromptSubmit', prompt: 'go on' }));
    expect(overview).toContain(`task (delegated): "${line}"`);
  });

  it('the same task resumes the session as before, and its agent spends the grant', () => {
    const id = parked();
    expect(cli(['approve', id]).status).toBe(0);
    // Reworded prompt, same description: the same task.
    const { offered, started } = delegate(AGAIN, { ...TASK, prompt: 'The user approved: go on with run1' });
    expect(offered).toContain('had a resumable session');
    expect(offered).toContain('Task (as delegated, quoted): "Continue test: The user approved: go on with run1"');
    expect(started).toContain(`resumes session ${id}`);
    expect(ask(AGAIN)).toBe('allow');
    expect(stateOf(id).permission_requests[0]).toMatchObject({ status: 'spent', spent_by: AGAIN });
  });

  it('another task gets a new session, the context names both, and the grant stays with its task', () => {
    const id = parked();
    expect(cli(['approve', id]).status).toBe(0);
    const other = delegate(OTHER, OTHER_TASK);
    expect(other.id).not.toBe(id);
    expect(other.offered).toContain(`parked session ${id}`);
    expect(other.offered).toContain('"Audit the logs: TASK run2: list every error in logs/"');
    expect(other.offered).toContain('"Continue test: TASK run1: CMD:echo R1-CONTEXT-c64877b9"');
    expect(other.offered).toContain('SendMessage');
    // After the tool's result, both sessions named with their tasks.
    expect(other.posted).toContain(`new session ${other.id}, not in "${TYPE}"'s parked session ${id}`);
    expect(other.posted).toContain(`Session ${other.id}'s task (quoted): "Audit the logs: TASK run2`);
    expect(other.posted).toContain(`Session ${id}'s task (quoted): "Continue test: TASK run1`);
    expect(stateOf(other.id)).toMatchObject({
      task: { description: 'Audit the logs', passed_over_id: id },
    });
    // The other task's agent asks the very call the grant allows: not its grant (a new inbox item of its own).
    expect(ask(OTHER)).toBe('deny');
    expect(stateOf(id)).toMatchObject({ task: { description: 'Continue test' } });
    expect(stateOf(id).permission_requests[0]).toMatchObject({ status: 'approved' });
    expect(cli(['show', id]).stdout).toContain('Passed over');
    stop(OTHER);
    // Delegating the parked task again carries it on, though the other session is now its type's newest.
    const again = delegate(AGAIN, TASK);
    expect(again.id).toBe(id);
    expect(again.started).toContain(`resumes session ${id}`);
    expect(ask(AGAIN)).toBe('allow');
    expect(stateOf(id).permission_requests[0]).toMatchObject({ status: 'spent', spent_by: AGAIN });
    expect(stateOf(id).task.passed_over).toBeUndefined();
  });
});
