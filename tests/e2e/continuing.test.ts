import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectSlug } from '../../src/core/claude-transcript';
import { BIN, run } from '../helpers';

// Issue 34 through the built bins, as Claude Code runs them: run 1's sub-agent parks its session; in run 2 (a new
// Claude session) PreToolUse(SendMessage) to its id brings its transcript over and rewrites the message, its
// SubagentStart again continues the same session; `show`, `should-resume --explain` and `stats` tell the choice and its
// reason; over the limit a fresh agent is primed and nothing is brought. Each test: its own project folder and HOME.
const AGENT = 'a0d576975fb5c7003';
const TYPE = 'terraform-architect';
const RUN1 = '5e740a00-0000-4000-8000-000000000001';
const RUN2 = '5e740a00-0000-4000-8000-000000000002';

let dir: string;
let project: string;
let projectDir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-continuing-'));
  project = join(dir, 'app');
  mkdirSync(join(project, '.claude'), { recursive: true });
  projectDir = join(dir, 'home', '.claude', 'projects', projectSlug(project));
  mkdirSync(projectDir, { recursive: true });
  for (const session of [RUN1, RUN2]) writeFileSync(join(projectDir, `${session}.jsonl`), '{"type":"user"}\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}) => ({
  CLAUDE_PROJECT_DIR: project,
  HOME: join(dir, 'home'),
  AGENT_SESSION_CONFIG: undefined,
  COLUMNS: '250',
  ...extra,
});
const cli = (args: readonly string[]) => run(BIN.cli, args, { cwd: project, env: env() });
const hook = (bin: string, session: string, input: Record<string, unknown>, extra: Record<string, string> = {}) =>
  run(bin, [], {
    cwd: project,
    env: env(extra),
    input: JSON.stringify({
      session_id: session,
      transcript_path: join(projectDir, `${session}.jsonl`),
      cwd: project,
      ...input,
    }),
  });

/** Run 1: the sub-agent starts, records planning, its transcript is written, and it stops (parked). */
function parkRun1(padding = 0): string {
  const start = hook(BIN.preDelegate, RUN1, { hook_event_name: 'SubagentStart', agent_id: AGENT, agent_type: TYPE });
  expect(start.status).toBe(0);
  const id = /session (agent-[\w-]+)/.exec(JSON.parse(start.stdout).hookSpecificOutput.additionalContext)![1]!;
  expect(cli(['update', id, '--phase', 'planning']).status).toBe(0);
  const folder = join(projectDir, RUN1, 'subagents');
  mkdirSync(folder, { recursive: true });
  const rows = [{ type: 'user', agentId: AGENT, isSidechain: true, cwd: project }, { pad: 'x'.repeat(padding) }];
  writeFileSync(join(folder, `agent-${AGENT}.jsonl`), rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  writeFileSync(join(folder, `agent-${AGENT}.meta.json`), `{"agentType":"${TYPE}","finished":true}`);
  const stop = hook(BIN.subagentStop, RUN1, {
    hook_event_name: 'SubagentStop',
    agent_id: AGENT,
    agent_type: TYPE,
    last_assistant_message: 'Plan ready.',
  });
  expect(stop.status).toBe(0);
  return id;
}

const sendMessage = (extra: Record<string, string> = {}) =>
  hook(
    BIN.preDelegate,
    RUN2,
    {
      hook_event_name: 'PreToolUse',
      tool_name: 'SendMessage',
      tool_input: { to: AGENT, message: 'CONT R2', summary: 'go on' },
    },
    extra,
  );

it('run 2 continues the same agent in the same session; show, should-resume --explain and stats say so', () => {
  const id = parkRun1();
  const overview = hook(BIN.preDelegate, RUN2, { hook_event_name: 'UserPromptSubmit', prompt: 'go on' });
  expect(JSON.parse(overview.stdout).hookSpecificOutput.additionalContext).toContain(
    `"${AGENT}": continuable with its context`,
  );
  const answer = sendMessage();
  expect(answer.status).toBe(0);
  const updated = JSON.parse(answer.stdout).hookSpecificOutput.updatedInput;
  expect(updated).toMatchObject({ to: AGENT, summary: 'go on' });
  expect(updated.message).toMatch(new RegExp(`^CONT R2\\n\\nagent-session: this continues session ${id} `));
  const copied = join(projectDir, RUN2, 'subagents', `agent-${AGENT}.jsonl`);
  expect(readFileSync(copied, 'utf8')).toBe(
    readFileSync(join(projectDir, RUN1, 'subagents', `agent-${AGENT}.jsonl`), 'utf8'),
  );
  const explained = cli(['should-resume', id, '--explain']);
  expect(explained.stdout).toMatch(
    /continuation: continue \(transcript \d+ bytes, under the 512 KB limit, in session /,
  );
  expect(explained.stdout).toContain('asked, not started yet');

  const start = hook(BIN.preDelegate, RUN2, { hook_event_name: 'SubagentStart', agent_id: AGENT, agent_type: TYPE });
  expect(start.status).toBe(0);
  const shown = cli(['show', id]);
  expect(shown.stdout).toMatch(/Continuation\s+continue \(transcript .*continued 1 time/);
  expect(shown.stdout).toMatch(/continued\s+in planning, with its context/);
  expect(shown.stdout).toMatch(new RegExp(`Claude agent\\s+${AGENT} \\(${TYPE}\\), running`));
  const json = JSON.parse(cli(['should-resume', id, '--explain', '--json']).stdout);
  expect(json.continuation).toMatchObject({ choice: 'continue', count: 1, continuing: false, transcript_path: copied });
  expect(JSON.parse(cli(['stats', '--json']).stdout).overall).toMatchObject({ continued: 1, primed: 0 });
  expect(JSON.parse(cli(['list', '--json']).stdout)).toHaveLength(1);
});

it('over the size limit: nothing brought, the main agent told a fresh agent is primed; show says why', () => {
  const id = parkRun1(4000);
  const answer = sendMessage({ AGENT_SESSION_CONTINUE_MAX_TRANSCRIPT_BYTES: '2000' });
  expect(answer.status).toBe(0);
  const output = JSON.parse(answer.stdout).hookSpecificOutput;
  expect(output.updatedInput).toBeUndefined();
  expect(output.additionalContext).toMatch(
    /is not continued with its context from here: transcript 4\.0 KB, over the 2\.0 KB limit/,
  );
  expect(existsSync(join(projectDir, RUN2, 'subagents', `agent-${AGENT}.jsonl`))).toBe(false);
  expect(cli(['show', id]).stdout).toMatch(/Continuation\s+prime \(transcript 4\.0 KB, over the 2\.0 KB limit\)/);
  expect(JSON.parse(cli(['stats', '--json']).stdout).overall).toMatchObject({ continued: 0, primed: 1 });
});

it('turned off (AGENT_SESSION_CONTINUE_AGENTS=false): nothing brought', () => {
  parkRun1();
  const output = JSON.parse(sendMessage({ AGENT_SESSION_CONTINUE_AGENTS: 'false' }).stdout).hookSpecificOutput;
  expect(output.additionalContext).toContain('continuing agents with their context is turned off');
  expect(existsSync(join(projectDir, RUN2, 'subagents'))).toBe(false);
});
