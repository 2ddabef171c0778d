import { preDelegate, subagentStop } from '../../../../src/hooks/seed/seed-protocol';
import type { Sessions } from '../../../../src/service/sessions';
import { memorySessions } from '../../../support/sessions';
import { excerpt } from '../../../../src/core/text';

let clock: Date;
let sessions: Sessions;
beforeEach(() => {
  clock = new Date('2026-01-08T18:00:00.000Z');
  ({ sessions } = memorySessions({ now: () => clock }));
});

describe('preDelegate', () => {
  it('tells the decision once an approved session is picked up, its note cut to 1,000 characters', async () => {
    const state = await sessions.create({ agent_name: 'planner', purpose: 'p' });
    await sessions.update(state.agent_id, { phase: 'approval' });
    await sessions.approve(state.agent_id, { by: 'alice', note: 'n'.repeat(5000) });
    const answer = await preDelegate(sessions, { agent_name: 'planner' });
    expect(answer).toMatchObject({ should_resume: true, agent_id: state.agent_id });
    expect(answer.resume_metadata?.decision).toMatchObject({ decision: 'approved', by: 'alice' });
    expect(answer.resume_metadata?.decision?.note).toHaveLength(1000);
    expect((await sessions.get(state.agent_id)).decisions?.[0]?.note).toHaveLength(5000);
    expect(await preDelegate(sessions, { agent_name: 'planner' })).toMatchObject({ should_resume: false });
  });

  it.each([
    ['an array', [1]],
    ['null', null],
    ['a number', 3],
    ['a numeric agent_id', { agent_id: 5 }],
    ['an object agent_name', { agent_name: {} }],
    ['a traversal id', { agent_id: '../../etc' }],
  ])('answers invalid_input for %s', async (_label, input) => {
    expect(await preDelegate(sessions, input)).toMatchObject({ should_resume: false, reason: 'invalid_input' });
  });

  it.each([[{}], [{ agent_name: 'x' }], [{ agent_name: 'x', agent_id: null }], [{ agent_name: 'x', agent_id: '' }]])(
    'answers no_existing_session for %p',
    async (input) => {
      expect(await preDelegate(sessions, input)).toEqual({ should_resume: false, reason: 'no_existing_session' });
    },
  );

  it('answers session_not_found for an unknown id', async () => {
    expect(await preDelegate(sessions, { agent_name: 'x', agent_id: 'agent-1' })).toEqual({
      should_resume: false,
      reason: 'session_not_found',
      agent_id: 'agent-1',
    });
  });

  it('resumes by id and by name with the seed’s resume_metadata', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'terraform', purpose: 'p', metadata: { task_id: 'T1' } });
    await sessions.update(agent_id, { phase: 'approval' });
    const answer = await preDelegate(sessions, { agent_name: 'terraform', agent_id, task_id: 'T1', extra: [1] });
    expect(answer).toEqual({
      should_resume: true,
      reason: 'session_resumable',
      agent_id,
      resume_metadata: {
        previous_phase: 'approval',
        created_at: clock.toISOString(),
        last_updated: clock.toISOString(),
        history: [{ from_phase: 'initializing', to_phase: 'approval', timestamp: clock.toISOString() }],
        metadata: { task_id: 'T1' },
      },
    });
    // The first approval was recorded: the second answer's history ends with it.
    const again = await preDelegate(sessions, { agent_name: 'terraform' });
    expect(again).toMatchObject({ should_resume: true, agent_id });
    expect(again.resume_metadata?.history.at(-1)).toEqual({
      from_phase: 'approval',
      to_phase: 'approval',
      timestamp: clock.toISOString(),
      event: 'resume',
    });
  });

  it('records nothing when the answer is no', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'x', purpose: 'p' });
    await sessions.update(agent_id, { phase: 'approval', error: 'a' });
    await sessions.update(agent_id, { error: 'b' });
    await sessions.update(agent_id, { error: 'c' });
    const before = await sessions.get(agent_id);
    expect(await preDelegate(sessions, { agent_id })).toMatchObject({
      should_resume: false,
      reason: 'too_many_errors',
    });
    expect(await sessions.get(agent_id)).toEqual(before);
  });

  it('says why not, with the session id', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'x', purpose: 'p' });
    await sessions.update(agent_id, { phase: 'executing' });
    expect(await preDelegate(sessions, { agent_name: 'x' })).toEqual({
      should_resume: false,
      reason: 'phase_not_resumable',
      agent_id,
    });
  });
});

describe('subagentStop', () => {
  it('finalizes completed, or failed on a non-zero exit code', async () => {
    const a = await sessions.create({ agent_name: 'x', purpose: 'p' });
    const b = await sessions.create({ agent_name: 'x', purpose: 'p', id: 'b' });
    expect(await subagentStop(sessions, { task_info: { agent_id: a.agent_id }, agent_output: 'All done.' })).toEqual({
      finalized: true,
      agent_id: a.agent_id,
      outcome: 'completed',
    });
    expect(await sessions.get(a.agent_id)).toMatchObject({ phase: 'completed', summary: 'All done.' });
    expect(await subagentStop(sessions, { agent_id: b.agent_id, exit_code: 2 })).toEqual({
      finalized: true,
      agent_id: 'b',
      outcome: 'failed',
    });
    expect((await sessions.get('b')).summary).toBe('Agent finished with exit code 2');
  });

  it.each([
    [{}, 'no_agent_id'],
    [{ task_info: {} }, 'no_agent_id'],
    [{ task_info: { agent_id: 'missing' } }, 'session_not_found'],
    [{ task_info: { agent_id: '../x' } }, 'invalid_input'],
    [{ task_info: 'x' }, 'invalid_input'],
    [{ agent_id: 'a', exit_code: 'bad' }, 'invalid_input'],
    [[], 'invalid_input'],
  ])('%p → %s', async (input, reason) => {
    expect(await subagentStop(sessions, input)).toMatchObject({ finalized: false, reason });
  });

  it('does not finalize twice', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'x', purpose: 'p' });
    await subagentStop(sessions, { agent_id });
    expect(await subagentStop(sessions, { agent_id })).toEqual({ finalized: false, reason: 'already_final', agent_id });
  });

  it('keeps a long agent_output as an excerpt', () => {
    expect(excerpt('abcdef', 4)).toBe('abc…');
    expect(excerpt('abc', 4)).toBe('abc');
  });
});

describe('a session of another agent (issue 10 item 6)', () => {
  beforeEach(async () => {
    await sessions.create({ agent_name: 'B', purpose: 'p', id: 'b-session' });
    await sessions.update('b-session', { phase: 'approval' });
  });

  it('pre-delegate for A with B’s id answers agent_mismatch and records nothing', async () => {
    const before = await sessions.get('b-session');
    const answer = await preDelegate(sessions, { agent_name: 'A', agent_id: 'b-session' });
    expect(answer).toEqual({ should_resume: false, reason: 'agent_mismatch', agent_id: 'b-session' });
    expect(await sessions.get('b-session')).toEqual(before);
    const own = await preDelegate(sessions, { agent_name: 'B', agent_id: 'b-session' });
    expect(own).toMatchObject({ should_resume: true, reason: 'session_resumable' });
  });

  it.each([
    ['agent_name', { agent_id: 'b-session', agent_name: 'A' }],
    ['task_info.agent_name', { task_info: { agent_id: 'b-session', agent_name: 'A' } }],
  ])('subagent-stop naming another agent in %s does not finalize', async (_label, input) => {
    expect(await subagentStop(sessions, input)).toEqual({
      finalized: false,
      reason: 'agent_mismatch',
      agent_id: 'b-session',
    });
    expect((await sessions.get('b-session')).phase).toBe('approval');
  });

  it('subagent-stop naming the right agent, or none, finalizes', async () => {
    expect(await subagentStop(sessions, { agent_id: 'b-session', agent_name: 'B' })).toMatchObject({ finalized: true });
  });
});

// Issue 22: the seed protocol's word for an agent killed by a host failure (an API error, a usage limit).
describe('subagentStop with `interrupted`, then preDelegate', () => {
  async function executing(): Promise<string> {
    const { agent_id } = await sessions.create({ agent_name: 'migrator', purpose: 'p', metadata: { task_id: 'T7' } });
    await sessions.update(agent_id, { phase: 'executing' });
    return agent_id;
  }

  it('keeps the session open in its phase, interrupted, instead of finalizing it; exit_code does not finalize it', async () => {
    const agent_id = await executing();
    const interrupted = { error: 'rate_limit', message: 'Usage limit reached, resets at 5pm' };
    expect(await subagentStop(sessions, { agent_id, exit_code: 1, interrupted })).toEqual({
      finalized: false,
      reason: 'interrupted',
      agent_id,
    });
    const state = await sessions.get(agent_id);
    expect(state).toMatchObject({ phase: 'executing', error_count: 0 });
    expect(state.interruption).toMatchObject({ count: 1, waiting: true, error: 'rate_limit', phase: 'executing' });
    expect(state.claude).toBeUndefined();
  });

  it('a second report of the same interruption changes nothing', async () => {
    const agent_id = await executing();
    await subagentStop(sessions, { agent_id, interrupted: { error: 'server_error' } });
    const once = await sessions.get(agent_id);
    clock = new Date(clock.getTime() + 1000);
    expect(await subagentStop(sessions, { agent_id, interrupted: {} })).toMatchObject({ reason: 'interrupted' });
    expect(await sessions.get(agent_id)).toEqual(once);
  });

  it('the next pre-delegate resumes it hours later (session_interrupted), with what interrupted it', async () => {
    const agent_id = await executing();
    await subagentStop(sessions, { task_info: { agent_id }, interrupted: { error: 'rate_limit', message: 'm' } });
    const at = clock.toISOString();
    clock = new Date(clock.getTime() + 5 * 3_600_000);
    const answer = await preDelegate(sessions, { agent_name: 'migrator' });
    expect(answer).toMatchObject({
      should_resume: true,
      reason: 'session_interrupted',
      agent_id,
      resume_metadata: {
        previous_phase: 'executing',
        metadata: { task_id: 'T7' },
        interruption: { at, error: 'rate_limit', message: 'm', phase: 'executing' },
      },
    });
    // Carried on: the next answer is the ordinary one (executing is not resumable).
    expect(await preDelegate(sessions, { agent_name: 'migrator' })).toMatchObject({
      should_resume: false,
      reason: 'phase_not_resumable',
    });
    expect((await sessions.get(agent_id)).interruption).toMatchObject({ waiting: false, carried_on: 1 });
  });

  it.each([
    ['an error kind that is not a word', { error: 'Rate Limit!' }],
    ['an error that is not text', { error: 5 }],
    ['a message that is not text', { message: ['x'] }],
    ['interrupted that is not an object', 'yes'],
  ])('answers invalid_input for %s, and writes nothing', async (_label, interrupted) => {
    const agent_id = await executing();
    const before = await sessions.get(agent_id);
    expect(await subagentStop(sessions, { agent_id, interrupted })).toMatchObject({
      finalized: false,
      reason: 'invalid_input',
      error: expect.stringContaining('interrupted'),
    });
    expect(await sessions.get(agent_id)).toEqual(before);
  });

  it('answers as a stop does for another agent’s, a final, a missing session', async () => {
    const agent_id = await executing();
    const interrupted = { error: 'overloaded' };
    expect(await subagentStop(sessions, { agent_id, agent_name: 'other', interrupted })).toEqual({
      finalized: false,
      reason: 'agent_mismatch',
      agent_id,
    });
    await sessions.finalize(agent_id, 'completed');
    expect(await subagentStop(sessions, { agent_id, interrupted })).toMatchObject({ reason: 'already_final' });
    expect(await subagentStop(sessions, { agent_id: 'nope', interrupted })).toMatchObject({
      reason: 'session_not_found',
    });
  });

  it('`interrupted: null` is a plain stop', async () => {
    const agent_id = await executing();
    expect(await subagentStop(sessions, { agent_id, interrupted: null })).toMatchObject({ finalized: true });
  });
});
