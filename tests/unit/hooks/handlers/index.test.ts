import { withClaudeLink } from '../../../../src/core/claude-link';
import { EVENTS } from '../../../../src/core/events';
import { handleEvent } from '../../../../src/hooks/answer';
import { HANDLERS, type HookAnswer } from '../../../../src/hooks/handlers';
import { approveResume } from '../../../../src/hooks/handlers/offer';
import { claudeCode } from '../../../../src/hooks/hosts/claude-code';
import type { Sessions } from '../../../../src/service/sessions';
import { memorySessions } from '../../../support/sessions';

let clock: Date;
let sessions: Sessions;
const context = () => ({ cli: ['agent-session', '--dir', '/p'], now: clock, words: claudeCode.words });
beforeEach(() => {
  clock = new Date('2026-01-08T18:00:00.000Z');
  ({ sessions } = memorySessions({ now: () => clock }));
});

/** The context text of an answer (undefined for none, or for an answer that carries no context). */
const contextOf = (answer: HookAnswer | null | undefined): string | undefined =>
  answer !== null &&
  answer !== undefined &&
  'hookSpecificOutput' in answer &&
  'additionalContext' in answer.hookSpecificOutput
    ? answer.hookSpecificOutput.additionalContext
    : undefined;

const minutes = (n: number) => {
  clock = new Date(clock.getTime() + n * 60_000);
};

describe('Claude Code handler', () => {
  it('offers no resume once the session expired, and states how long ago otherwise', async () => {
    const state = await sessions.create({ agent_name: 'Explore', purpose: 'p' });
    await sessions.update(state.agent_id, { phase: 'approval' });
    minutes(12);
    const offer = await handleEvent(
      sessions,
      { hook_event_name: 'PreToolUse', tool_name: 'Task', tool_input: { subagent_type: 'Explore' } },
      context(),
    );
    expect(contextOf(offer.answer)).toContain('12 minutes ago');
    minutes(30);
    expect(await approveResume(sessions, 'Explore')).toBeNull();
    expect(
      (
        await handleEvent(
          sessions,
          { hook_event_name: 'PreToolUse', tool_name: 'Agent', tool_input: { subagent_type: 'Explore' } },
          context(),
        )
      ).answer,
    ).toBeNull();
  });

  it('names a recorded resume in the history it shows, instead of a move from a phase to itself', async () => {
    const state = await sessions.create({ agent_name: 'Explore', purpose: 'p' });
    await sessions.update(state.agent_id, { phase: 'approval' });
    await sessions.recordResume(state.agent_id);
    const offer = await handleEvent(
      sessions,
      { hook_event_name: 'PreToolUse', tool_name: 'Agent', tool_input: { subagent_type: 'Explore' } },
      context(),
    );
    const text = contextOf(offer.answer) ?? '';
    expect(text).toContain('resumed in approval at');
    expect(text).not.toContain('approval → approval');
  });

  it('reads tool_input given as a JSON string, and treats wrong field types as absent', async () => {
    const state = await sessions.create({ agent_name: 'Explore', purpose: 'p' });
    await sessions.update(state.agent_id, { phase: 'planning' });
    const answer = (
      await handleEvent(
        sessions,
        { hook_event_name: 'PreToolUse', tool_name: 'Agent', tool_input: '{"subagent_type":"Explore"}' },
        context(),
      )
    ).answer;
    expect(contextOf(answer)).toContain(state.agent_id);
    const odd = await handleEvent(
      sessions,
      { hook_event_name: 'SubagentStart', agent_id: 42, agent_type: ['x'] },
      context(),
    );
    expect(odd.answer).toBeNull();
  });

  it('creates a new session when the parked one was taken between the look and the link', async () => {
    const parked = await sessions.create({ agent_name: 'Explore', purpose: 'p' });
    await sessions.update(parked.agent_id, { phase: 'approval' });
    // Someone links it between the look and the relink (outside the hooks' locks): the check under the session
    // lock refuses the relink.
    const store = sessions.store;
    const original = store.newestOf.bind(store);
    store.newestOf = async (name, notAfter) => {
      const found = await original(name, notAfter);
      if (found !== null) await sessions.linkClaude(found.agent_id, { agent_id: 'other-agent' });
      return found;
    };
    const outcome = await handleEvent(
      sessions,
      { hook_event_name: 'SubagentStart', agent_id: 'mine', agent_type: 'Explore' },
      context(),
    );
    expect(outcome.note).toMatch(/^created/);
    expect((await sessions.get(parked.agent_id)).claude?.agent_id).toBe('other-agent');
    expect((await sessions.findByClaudeAgent('mine'))?.agent_id).not.toBe(parked.agent_id);
  });

  it('never links a final session', async () => {
    const state = await sessions.finalize(
      (await sessions.create({ agent_name: 'a', purpose: 'p' })).agent_id,
      'completed',
    );
    expect(() => withClaudeLink(state, { agent_id: 'x' }, clock)).toThrow(
      expect.objectContaining({ code: 'E_ILLEGAL_TRANSITION' }),
    );
  });
});

describe('a session last active slightly ahead of this clock', () => {
  it.each([
    ['approved', 'approval parked, then approved: the next agent picks it up in executing', 'executing'],
    ['rejected', 'approval parked, then rejected: the next agent resumes it in planning', 'planning'],
  ] as const)('a decision reaches the next sub-agent (%s)', async (decision, _label, phase) => {
    const state = await sessions.create({ agent_name: 'Explore', purpose: 'p' });
    await sessions.update(state.agent_id, { phase: 'approval' });
    minutes(3);
    if (decision === 'approved') await sessions.approve(state.agent_id, { by: 'alice', note: 'go <b>' });
    else await sessions.reject(state.agent_id, { by: 'alice', reason: 'split it' });
    minutes(1);
    const listed = await handleEvent(sessions, { hook_event_name: 'UserPromptSubmit', prompt: 'x' }, context());
    expect(contextOf(listed.answer)).toContain(`phase ${phase}`);
    const payload = { hook_event_name: 'SubagentStart', agent_id: 'a0123456789abcdef', agent_type: 'Explore' };
    const start = contextOf((await handleEvent(sessions, payload, context())).answer);
    expect(start).toContain(`this sub-agent resumes session ${state.agent_id}`);
    expect(start).toContain(
      `- Last decision: ${decision} by "alice" (claimed; OS user "tester", at a terminal) at 2026-01-08T18:03:00.000Z`,
    );
    // Picked up once: the next delegation of this type starts a new session.
    expect((await sessions.get(state.agent_id)).history.at(-1)).toMatchObject({ event: 'resume', to_phase: phase });
    expect(await sessions.parkedOf('Explore')).toBeNull();
  });

  it('SubagentStart and SessionStart say "just now", not "in 29 seconds"', async () => {
    const today = clock;
    clock = new Date(today.getTime() + 30_000); // written by a clock 30 s ahead (an import, another machine)
    const state = await sessions.create({ agent_name: 'Explore', purpose: 'p' });
    await sessions.update(state.agent_id, { phase: 'approval' });
    clock = today;
    // The overview first: once SubagentStart relinks the session to a running agent it is no longer parked.
    const overview = await handleEvent(sessions, { hook_event_name: 'SessionStart' }, context());
    const payload = { hook_event_name: 'SubagentStart', agent_id: 'a0123456789abcdef', agent_type: 'Explore' };
    const start = await handleEvent(sessions, payload, context());
    for (const text of [contextOf(start.answer), contextOf(overview.answer)]) {
      expect(text).toContain('just now');
      expect(text).not.toMatch(/\bin \d+ seconds\b/);
    }
  });
});

describe('recorded text in the resume context (issue 20)', () => {
  it('shows other metadata as one line of JSON, and quotes the cut text past the field limit', async () => {
    for (const [plan, expected] of [
      ['3 buckets', '- Other metadata (reported by the agent, JSON): {"plan":"3 buckets"}\n'],
      [
        'x'.repeat(3000),
        '- Other metadata (reported by the agent, JSON cut to 1500 characters, quoted): "{\\"plan\\":\\"xxx',
      ],
    ] as const) {
      const { sessions: fresh } = memorySessions({ now: () => clock });
      const state = await fresh.create({ agent_name: 'Explore', purpose: 'p', metadata: { plan } });
      await fresh.update(state.agent_id, { phase: 'approval' });
      const payload = { hook_event_name: 'PreToolUse', tool_name: 'Agent', tool_input: { subagent_type: 'Explore' } };
      const text = contextOf((await handleEvent(fresh, payload, context())).answer) ?? '';
      expect(text).toContain(expected);
      const line = text.split('\n').find((l) => l.startsWith('- Other metadata'))!;
      expect(line.length).toBeLessThan(1600);
      expect(line.endsWith('…"') || line.endsWith('}')).toBe(true);
    }
  });
});

describe('the handler map', () => {
  it('has one handler for each row of the table of events, and no other', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(EVENTS.map((row) => row.event).sort());
  });

  it.each(['Notification', 'SessionEnd', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'leaves an event that is no row alone: %s',
    async (event) => {
      expect(await handleEvent(sessions, { hook_event_name: event, agent_id: 'a1' }, context())).toEqual({
        answer: null,
        note: 'other_event',
      });
    },
  );

  it("answers Codex's PostModelRequest as it arrives from another host with nothing (its adapter reads it)", async () => {
    const payload = { hook_event_name: 'PostModelRequest', agent_id: 'a1', agent_type: 'x', status: 'failed' };
    expect(await handleEvent(sessions, payload, context())).toEqual({ answer: null, note: 'other_event' });
    expect(await sessions.list()).toEqual([]);
  });
});
