import { handleEvent } from '../../../../src/hooks/answer';
import { claudeCode } from '../../../../src/hooks/hosts/claude-code';
import type { PersonChannel } from '../../../../src/app/told';
import type { Sessions } from '../../../../src/service/sessions';
import { memorySessions } from '../../../support/sessions';

let clock: Date;
let sessions: Sessions;
let told: Set<string>;
let page: string | null;
const person = (): PersonChannel => ({
  claim: (key) => !told.has(key) && Boolean(told.add(key)),
  page: () => page,
});
const context = (withPerson = true) => ({
  cli: ['agent-session', '--dir', '/p'],
  now: clock,
  words: claudeCode.words,
  ...(withPerson ? { person } : {}),
});
const stop = (fields: Record<string, unknown> = {}) =>
  handleEvent(sessions, { hook_event_name: 'Stop', session_id: 's1', stop_hook_active: false, ...fields }, context());

beforeEach(() => {
  clock = new Date('2026-01-08T18:00:00.000Z');
  ({ sessions } = memorySessions({ now: () => clock }));
  told = new Set();
  page = null;
});

async function parked(name: string, plan: string) {
  const state = await sessions.create({ agent_name: name, purpose: 'p' });
  await sessions.update(state.agent_id, { phase: 'planning', metadata: { plan } });
  return sessions.update(state.agent_id, { phase: 'approval' });
}

describe('Stop: the person is told', () => {
  it('names a decision that started waiting, once: never on a later turn', async () => {
    const state = await parked('terraform-architect', '3 resources');
    const first = await stop();
    expect(first.answer).toEqual({
      systemMessage: expect.stringMatching(
        /^agent-session: 1 decision waits — terraform-architect \(\w{8}\) waits for approval of its plan: 3 resources · decide with `agent-session approve /,
      ),
    });
    expect(JSON.stringify(first.answer)).toContain(state.agent_id);
    expect(first.note).toBe('told count=1 waiting=1');
    expect(await stop()).toEqual({ answer: null, note: 'told_before waiting=1' });
  });

  it('names only what is new, and a session that waits again later (a new plan) anew', async () => {
    const a = await parked('a', 'plan a');
    await stop();
    await parked('b', 'plan b');
    const second = await stop();
    expect((second.answer as { systemMessage: string }).systemMessage).toMatch(/1 decision waits — b /);
    // a is rejected, plans again, and waits again: a new item.
    clock = new Date(clock.getTime() + 60_000);
    await sessions.reject(a.agent_id, { reason: 'smaller' });
    await sessions.update(a.agent_id, { phase: 'planning', metadata: { plan: 'plan a2' } });
    await sessions.update(a.agent_id, { phase: 'approval' });
    expect((await stop()).answer).toEqual({ systemMessage: expect.stringContaining('a (') });
  });

  it('links the decision on the page of a serve that runs', async () => {
    const state = await parked('x', 'p');
    page = 'http://127.0.0.1:4242/';
    expect((await stop()).answer).toEqual({
      systemMessage: expect.stringMatching(
        new RegExp(`or on the page http://127\\.0\\.0\\.1:4242/#session=${state.agent_id}$`),
      ),
    });
  });

  it.each([
    ['nothing waits', async () => undefined, 'nothing_waits'],
    [
      'a session in planning waits for an agent',
      async () => void (await sessions.create({ agent_name: 'p', purpose: 'p' })),
      'nothing_waits',
    ],
  ])('says nothing when %s', async (_name, arrange, note) => {
    await arrange();
    expect(await stop()).toEqual({ answer: null, note });
  });

  it("leaves a sub-agent's payload alone, and says nothing without a record of what was told", async () => {
    await parked('x', 'p');
    expect(await stop({ agent_id: 'a1' })).toEqual({ answer: null, note: 'subagent' });
    expect(await handleEvent(sessions, { hook_event_name: 'Stop', session_id: 's1' }, context(false))).toEqual({
      answer: null,
      note: 'no_record',
    });
    expect(told.size).toBe(0);
  });
});
