// Issue 34 through the handlers: PreToolUse(SendMessage) continues a parked session's Claude agent with its context
// (its transcript brought from an earlier session of the Claude project, the message carrying the session's note), or
// tells the main agent a fresh one is primed and why; the parked list and the resume offer say which; the agent's
// start again continues the same session. A real file system laid out as Claude Code 2.1.330–2.1.332 lays it out.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectSlug } from '../../../../src/core/claude-transcript';
import { handleEvent } from '../../../../src/hooks/answer';
import type { HookAnswer } from '../../../../src/hooks/handlers';
import { claudeCode } from '../../../../src/hooks/hosts/claude-code';
import { codex } from '../../../../src/hooks/hosts/codex';
import type { Sessions } from '../../../../src/service/sessions';
import { memorySessions } from '../../../support/sessions';

const AGENT = 'ab28cde9769d88b8a';
const TYPE = 'terraform-architect';
const EARLIER = '7b0d78e0-6b85-4979-96cf-89f1a90e4f8a';
const CURRENT = '1b0d78e0-6b85-4979-96cf-89f1a90e4f8a';

let base: string;
let root: string;
let projectDir: string;
let clock: Date;
let sessions: Sessions;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-session-continue-'));
  root = join(base, 'work', 'app');
  mkdirSync(root, { recursive: true });
  projectDir = join(base, 'home', '.claude', 'projects', projectSlug(root));
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(join(projectDir, `${CURRENT}.jsonl`), '{"type":"user"}\n');
  clock = new Date('2026-01-08T18:00:00.000Z');
  ({ sessions } = memorySessions({ now: () => clock }));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

type Settings = { enabled: boolean; maxTranscriptBytes: number };
const context = (continuation?: Settings, words = claudeCode.words) => ({
  cli: ['agent-session', '--dir', '/p'],
  now: clock,
  words,
  ...(continuation === undefined ? {} : { continuation }),
});

/** The agent's two files in the run-1 session's folder, as Claude Code writes them (`bytes`: padding rows). */
function transcriptIn(session: string, agentId = AGENT, cwd = root, bytes = 0): string {
  const folder = join(projectDir, session, 'subagents');
  mkdirSync(folder, { recursive: true });
  const first = JSON.stringify({ isSidechain: true, agentId, type: 'user', cwd });
  const padding = bytes > 0 ? `${JSON.stringify({ type: 'assistant', pad: 'x'.repeat(bytes) })}\n` : '';
  writeFileSync(join(folder, `agent-${agentId}.jsonl`), `${first}\n${padding}`);
  writeFileSync(join(folder, `agent-${agentId}.meta.json`), `{"agentType":"${TYPE}","finished":true}`);
  return folder;
}

/** Run 1: the agent started in session EARLIER, recorded planning and stopped (its session parked). */
async function parkedInRun1(): Promise<string> {
  const started = await sessions.attachClaudeAgent({
    agent_id: AGENT,
    agent_type: TYPE,
    session_id: EARLIER,
    started: true,
  });
  await sessions.update(started!.state.agent_id, { phase: 'planning' });
  await sessions.claudeAgentStopped({ agent_id: AGENT, agent_type: TYPE, session_id: EARLIER, last_message: 'Plan.' });
  return started!.state.agent_id;
}

/** A payload of run 2 (a new `claude -p`: session CURRENT). */
function payload(event: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    hook_event_name: event,
    session_id: CURRENT,
    transcript_path: join(projectDir, `${CURRENT}.jsonl`),
    cwd: root,
    ...fields,
  };
}

const sendMessage = (to: string) =>
  payload('PreToolUse', {
    tool_name: 'SendMessage',
    tool_input: { to, message: 'CONT R2', summary: 'go on', type: 'message', recipient: to },
  });

const contextOf = (answer: HookAnswer | null): string | undefined =>
  answer !== null && 'hookSpecificOutput' in answer && 'additionalContext' in answer.hookSpecificOutput
    ? answer.hookSpecificOutput.additionalContext
    : undefined;

const here = (agentId = AGENT) => join(projectDir, CURRENT, 'subagents', `agent-${agentId}.jsonl`);

describe('PreToolUse(SendMessage)', () => {
  it("brings run 1's transcript, rewrites the message with the session's note, records the choice", async () => {
    const id = await parkedInRun1();
    const from = transcriptIn(EARLIER);
    const outcome = await handleEvent(sessions, sendMessage(AGENT), context());
    expect(outcome.answer).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: { to: AGENT, summary: 'go on', message: expect.stringMatching(/^CONT R2\n\nagent-session: /) },
      },
    });
    const message = (outcome.answer as { hookSpecificOutput: { updatedInput: { message: string } } }).hookSpecificOutput
      .updatedInput.message;
    expect(message).toContain(`continues session ${id}`);
    expect(message).toContain(`agent-session --dir /p update ${id} --phase`);
    expect(outcome.note).toMatch(/^continue where=earlier brought=copied /);
    expect(readFileSync(here(), 'utf8')).toBe(readFileSync(join(from, `agent-${AGENT}.jsonl`), 'utf8'));
    expect(existsSync(join(projectDir, CURRENT, 'subagents', `agent-${AGENT}.meta.json`))).toBe(true);
    const state = await sessions.get(id);
    expect(state.continuation).toMatchObject({
      choice: 'continue',
      claude_agent_id: AGENT,
      transcript_path: here(),
      continuing: true,
      count: 0,
    });
    expect(state.schema_version).toBe(9);

    // The agent starts again in run 2: the same session runs, with a `continue` entry; one session in the store.
    clock = new Date(clock.getTime() + 60_000);
    const start = await handleEvent(
      sessions,
      payload('SubagentStart', { agent_id: AGENT, agent_type: TYPE }),
      context(),
    );
    expect(start.note).toMatch(new RegExp(`^continued .* session="${id}"`));
    const back = await sessions.get(id);
    expect(back.history.at(-1)?.event).toBe('continue');
    expect(back.continuation).toMatchObject({ continuing: false, count: 1 });
    expect(back.claude?.session_id).toBe(CURRENT);
    expect(await sessions.list()).toHaveLength(1);
  });

  it.each([
    ['over the size limit', { enabled: true, maxTranscriptBytes: 1000 }, 5000, 'over-limit'],
    ['turned off', { enabled: false, maxTranscriptBytes: 512 * 1024 }, 0, 'disabled'],
  ])('%s: nothing brought, the main agent told a fresh agent is primed and why', async (_name, settings, pad, why) => {
    const id = await parkedInRun1();
    transcriptIn(EARLIER, AGENT, root, pad);
    const outcome = await handleEvent(sessions, sendMessage(AGENT), context(settings));
    expect(outcome.note).toMatch(new RegExp(`^prime why=${why} `));
    expect(contextOf(outcome.answer)).toContain(`A delegation to "${TYPE}" resumes that session`);
    expect(existsSync(here())).toBe(false);
    expect((await sessions.get(id)).continuation).toMatchObject({ choice: 'prime', continuing: false });
  });

  it('the transcript gone: a fresh agent primed, the reason recorded', async () => {
    const id = await parkedInRun1();
    const outcome = await handleEvent(sessions, sendMessage(AGENT), context());
    expect(outcome.note).toMatch(/^prime why=gone /);
    expect((await sessions.get(id)).continuation?.reason).toMatch(/^transcript gone/);
  });

  it("another project's agent id (a decoy) is never looked for nor brought", async () => {
    await parkedInRun1();
    const other = 'a0000000000000dec';
    transcriptIn(EARLIER, other);
    const outcome = await handleEvent(sessions, sendMessage(other), context());
    expect(outcome.answer).toBeNull();
    expect(outcome.note).toMatch(/^not_ours /);
    expect(existsSync(here(other))).toBe(false);
  });

  it.each([
    ['a path as the id', '../../x'],
    ['no id', undefined],
  ])('%s: left alone', async (_name, to) => {
    const outcome = await handleEvent(sessions, sendMessage(to as string), context());
    expect(outcome).toEqual({ answer: null, note: 'not_an_agent_id' });
  });

  it("an agent that still runs, or whose session ended, is not brought (the host's own flow decides)", async () => {
    const id = await parkedInRun1();
    transcriptIn(EARLIER);
    await sessions.finalize(id, 'completed');
    const outcome = await handleEvent(sessions, sendMessage(AGENT), context());
    expect(outcome.answer).toBeNull();
    expect(outcome.note).toMatch(/^not_continued why=ended /);
    expect(existsSync(here())).toBe(false);
  });

  it('an agent whose session a later delegation took over is not brought (one session, one agent)', async () => {
    await parkedInRun1();
    transcriptIn(EARLIER);
    const later = await sessions.attachClaudeAgent({
      agent_id: 'a1111111111111111',
      agent_type: TYPE,
      session_id: CURRENT,
      started: true,
    });
    expect(later?.action).toBe('relinked');
    const outcome = await handleEvent(sessions, sendMessage(AGENT), context());
    expect(outcome.answer).toBeNull();
    expect(outcome.note).toMatch(/^(superseded|not_ours) /);
    expect(existsSync(here())).toBe(false);
  });

  it('a host that cannot continue (Codex words) is left alone', async () => {
    await parkedInRun1();
    transcriptIn(EARLIER);
    const outcome = await handleEvent(sessions, sendMessage(AGENT), context(undefined, codex.words));
    expect(outcome).toEqual({ answer: null, note: 'other_host' });
  });
});

describe('the context before a delegation', () => {
  it('a transcript folder that cannot be read: the parked list is said as before (the feature steps aside)', async () => {
    await parkedInRun1();
    transcriptIn(EARLIER);
    const fs: typeof import('node:fs') = jest.requireActual('node:fs');
    const lstat = fs.lstatSync;
    const spy = jest.spyOn(fs, 'lstatSync').mockImplementation(((path: string, ...rest: unknown[]) => {
      if (String(path).includes('subagents')) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      return (lstat as (...args: unknown[]) => unknown)(path, ...rest);
    }) as typeof fs.lstatSync);
    try {
      const listed = await handleEvent(sessions, payload('UserPromptSubmit', { prompt: 'go' }), context());
      expect(contextOf(listed.answer)).toContain(`Claude agent "${AGENT}"`);
      expect(contextOf(listed.answer)).not.toContain('continuable');
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('the parked list names the agent continuable with SendMessage only when its transcript is reachable', async () => {
    await parkedInRun1();
    const before = await handleEvent(sessions, payload('UserPromptSubmit', { prompt: 'go' }), context());
    expect(contextOf(before.answer)).toContain('not continuable: transcript gone');
    expect(contextOf(before.answer)).not.toContain('SendMessage to');
    transcriptIn(EARLIER);
    const after = await handleEvent(sessions, payload('UserPromptSubmit', { prompt: 'go' }), context());
    expect(contextOf(after.answer)).toContain(`"${AGENT}": continuable with its context`);
    expect(contextOf(after.answer)).toContain('ToolSearch "select:SendMessage"');
    expect(after.note).toMatch(/continuable=1$/);
  });

  it('the resume offer says why the previous agent is not continued, and records the fresh agent primed', async () => {
    const id = await parkedInRun1();
    transcriptIn(EARLIER, AGENT, root, 5000);
    const offer = await handleEvent(
      sessions,
      payload('PreToolUse', { tool_name: 'Agent', tool_input: { subagent_type: TYPE } }),
      context({ enabled: true, maxTranscriptBytes: 1000 }),
    );
    expect(contextOf(offer.answer)).toMatch(
      /not continuable with its context: transcript 5.0 KB, over the 1000 bytes limit/,
    );
    expect(contextOf(offer.answer)).not.toContain('SendMessage');
    expect((await sessions.get(id)).continuation).toMatchObject({ choice: 'prime', claude_agent_id: AGENT });
  });
});
