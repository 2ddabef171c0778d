// Sessions.attachClaudeAgent: one session per Claude agent, whatever the order of its events.
import { withProject } from '../../../src/core/project';
import { stopOutcome } from '../../../src/core/stop-policy';
import type { SessionState } from '../../../src/core/state';
import type { ClaudeAgentEvent, Sessions } from '../../../src/service/sessions';
import { codeOfAsync } from '../../helpers';
import { memorySessions } from '../../support/sessions';

let clock: Date;
let sessions: Sessions;

/** A fresh service on its own memory store, on the test clock. */
function open(): Sessions {
  return memorySessions({ now: () => clock }).sessions;
}

beforeEach(() => {
  clock = new Date('2026-01-08T18:00:00.000Z');
  sessions = open();
});

const AGENT = 'a0123456789abcdef';
const TYPE = 'terraform-architect';
type EventName = 'post' | 'start' | 'stop';
const EVENTS: Readonly<Record<EventName, ClaudeAgentEvent>> = {
  post: { agent_id: AGENT, agent_type: TYPE, session_id: 's1' },
  start: { agent_id: AGENT, agent_type: TYPE, session_id: 's1' },
  stop: { agent_id: AGENT, agent_type: TYPE, session_id: 's1', stopped: { last_message: 'Plan ready.' } },
};

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** A store with (optionally) a session of TYPE parked in approval by an earlier agent that stopped. */
async function storeAt(withParked: boolean): Promise<Sessions> {
  const store = open();
  if (withParked) {
    const parked = await store.create({
      agent_name: TYPE,
      purpose: 'claude_code_subagent',
      metadata: { task_id: 'T1' },
    });
    await store.update(parked.agent_id, { phase: 'approval' });
    const previous = {
      agent_id: 'a0000000000000old',
      agent_type: TYPE,
      stopped: true as const,
      last_message: 'Waiting for approval.',
    };
    await store.linkClaude(parked.agent_id, previous);
  }
  return store;
}

async function everything(store: Sessions): Promise<SessionState[]> {
  return (await store.list()).flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
}

describe('attachClaudeAgent over every order of one agent’s events', () => {
  describe.each([
    ['no parked session', false, 'abandoned'],
    ['a parked session', true, 'approval'],
  ])('with %s', (_label, withParked, endPhase) => {
    let natural: SessionState[];
    beforeEach(async () => {
      const store = await storeAt(withParked);
      for (const name of ['post', 'start', 'stop'] as const) await store.attachClaudeAgent(EVENTS[name]);
      natural = await everything(store);
    });

    it('the natural order ends in one session, stopped as the stop policy says', () => {
      const linked = natural.filter((state) => state.claude?.agent_id === AGENT);
      expect(linked).toHaveLength(1);
      expect(natural).toHaveLength(1);
      expect(linked[0]!.phase).toBe(endPhase);
      expect(linked[0]!.claude?.stopped_at).toBe(clock.toISOString());
      expect(linked[0]!.history.filter((entry) => entry.event === 'resume')).toHaveLength(withParked ? 1 : 0);
    });

    it.each(permutations<EventName>(['post', 'start', 'stop']))(
      '%s, %s, %s ends in the natural order’s state',
      async (...order) => {
        const store = await storeAt(withParked);
        for (const name of order) await store.attachClaudeAgent(EVENTS[name]);
        expect(await everything(store)).toEqual(natural);
      },
    );

    it('a repeated event changes nothing', async () => {
      const store = await storeAt(withParked);
      for (const name of ['post', 'start', 'stop', 'stop', 'start', 'post'] as const)
        await store.attachClaudeAgent(EVENTS[name]);
      expect(await everything(store)).toEqual(natural);
    });
  });

  it('tells which action each event took, and the start after a relink still sees the resume on the link', async () => {
    const store = await storeAt(true);
    expect((await store.attachClaudeAgent(EVENTS.post))?.action).toBe('relinked');
    const start = (await store.attachClaudeAgent(EVENTS.start))!;
    expect(start.action).toBe('linked');
    expect(start.state.claude?.resumed_from).toEqual({
      phase: 'approval',
      last_active: clock.toISOString(),
      agent_id: 'a0000000000000old',
      last_message: 'Waiting for approval.',
    });
    expect(await store.attachClaudeAgent(EVENTS.stop)).toMatchObject({ action: 'linked', stop: 'kept' });
  });

  it('a final session linked to the agent is its session: never a second one', async () => {
    await sessions.attachClaudeAgent(EVENTS.stop);
    const [ended] = await everything(sessions);
    expect(ended?.phase).toBe('abandoned');
    expect(ended?.summary).toMatch(/still initializing.*Plan ready\./);
    const again = await sessions.attachClaudeAgent(EVENTS.start);
    expect(again).toMatchObject({ action: 'linked', state: { agent_id: ended!.agent_id, phase: 'abandoned' } });
    expect(await everything(sessions)).toHaveLength(1);
  });

  it('two agents of one type never share a parked session while the first runs', async () => {
    const store = await storeAt(true);
    const first = (await store.attachClaudeAgent({ agent_id: 'a1111111111111111', agent_type: TYPE }))!;
    const second = (await store.attachClaudeAgent({ agent_id: 'a2222222222222222', agent_type: TYPE }))!;
    expect(first.action).toBe('relinked');
    expect(second.action).toBe('created');
    expect(second.state.agent_id).not.toBe(first.state.agent_id);
  });

  it('a late event of an agent whose session was resumed by a later agent changes nothing (superseded)', async () => {
    const store = await storeAt(true);
    const first = (await store.attachClaudeAgent({ agent_id: 'a1111111111111111', agent_type: TYPE, stopped: {} }))!;
    expect(first).toMatchObject({ action: 'relinked', stop: 'kept' });
    const second = (await store.attachClaudeAgent({ agent_id: 'a2222222222222222', agent_type: TYPE }))!;
    expect(second).toMatchObject({ action: 'relinked', state: { agent_id: first.state.agent_id } });
    const before = await everything(store);
    expect(await store.attachClaudeAgent({ agent_id: 'a1111111111111111', agent_type: TYPE })).toMatchObject({
      action: 'superseded',
    });
    expect(await everything(store)).toEqual(before);
  });

  it('a stop without agent type finds an attached agent and creates nothing for an unknown one', async () => {
    expect(await sessions.attachClaudeAgent({ agent_id: AGENT, stopped: {} })).toBeNull();
    expect(await everything(sessions)).toHaveLength(0);
  });
});

describe('stopOutcome', () => {
  const state = (phase: SessionState['phase'], error_count = 0) => ({ phase, error_count }) as SessionState;
  it.each([
    ['initializing', 0, 'abandoned'],
    ['investigating', 0, 'kept'],
    ['planning', 0, 'kept'],
    ['approval', 0, 'kept'],
    ['approval', 3, 'failed'],
    ['executing', 0, 'completed'],
    ['validating', 0, 'completed'],
    ['executing', 3, 'failed'],
    ['initializing', 3, 'failed'],
  ] as const)('%s with %i errors → %s', (phase, errors, outcome) => {
    expect(stopOutcome(state(phase, errors), 3)).toBe(outcome);
  });
});

// The user approves while the planning agent is still running (its last message under way, or from another
// terminal): its stop must not finalize the approved session `completed` (nothing was executed) and lose the decision.
it('a stop after an approval made while the agent ran keeps the session for its pickup', async () => {
  const started = await sessions.attachClaudeAgent(EVENTS.start);
  const id = started!.state.agent_id;
  await sessions.update(id, { phase: 'approval' });
  await sessions.approve(id, { by: 'bob' });
  const stopped = await sessions.attachClaudeAgent(EVENTS.stop);
  expect(stopped).toMatchObject({ stop: 'kept', state: { phase: 'executing' } });
  const next = await sessions.attachClaudeAgent({ agent_id: 'a00000000000000ff', agent_type: TYPE });
  expect(next).toMatchObject({ action: 'relinked', state: { agent_id: id, phase: 'executing' } });
});

describe('parkedSessions with a session ahead of the clock', () => {
  it('a newer session of the same agent dated 2098 does not hide the agent’s real parked session', async () => {
    const store = await storeAt(true);
    const [parked] = await store.parkedSessions();
    expect(parked).toBeDefined();
    const today = clock;
    clock = new Date('2098-01-01T00:00:00.000Z');
    const ahead = await store.create({ agent_name: TYPE, purpose: 'imported from a clock ahead' });
    clock = today;
    expect((await store.list()).map((entry) => entry.id).sort()).toEqual([parked!.agent_id, ahead.agent_id].sort());
    expect((await store.parkedSessions()).map((state) => state.agent_id)).toEqual([parked!.agent_id]);
  });
});

describe('claudeAgentStopped (the stop policy through the service)', () => {
  it.each([
    ['initializing', 0, 'abandoned'],
    ['approval', 0, 'kept'],
    ['executing', 0, 'completed'],
    ['executing', 3, 'failed'],
  ] as const)(
    'an attached agent stopping in %s with %i errors → %s, written to its session',
    async (phase, errors, stop) => {
      const attached = (await sessions.attachClaudeAgent(EVENTS.start))!;
      if (phase !== 'initializing') {
        for (const step of ['investigating', 'planning', 'approval', 'executing'] as const) {
          await sessions.update(attached.state.agent_id, { phase: step });
          if (step === phase) break;
        }
      }
      for (let i = 0; i < errors; i++) await sessions.update(attached.state.agent_id, { error: `boom ${i}` });
      const stopped = (await sessions.claudeAgentStopped({
        agent_id: AGENT,
        agent_type: TYPE,
        last_message: 'Done here.',
      }))!;
      expect(stopped).toMatchObject({ action: 'linked', stop });
      const stored = await sessions.get(attached.state.agent_id);
      expect(stored.phase).toBe(stop === 'kept' ? phase : stop);
      expect(stored.claude).toMatchObject({
        agent_id: AGENT,
        last_message: 'Done here.',
        stopped_at: clock.toISOString(),
      });
    },
  );

  it('an unknown agent without a type: null, nothing created', async () => {
    expect(await sessions.claudeAgentStopped({ agent_id: AGENT })).toBeNull();
    expect(await everything(sessions)).toHaveLength(0);
  });
});

describe('a late stop racing a resume', () => {
  it("a stop without agent_type that reads the session before another agent resumes it leaves the new agent's link alone", async () => {
    const { sessions: service, store } = memorySessions({ now: () => clock });
    // Agent A ran the session and stopped: parked in approval.
    const first = (await service.attachClaudeAgent({ agent_id: 'a000000000000000a', agent_type: TYPE }))!;
    for (const phase of ['investigating', 'planning', 'approval'] as const)
      await service.update(first.state.agent_id, { phase });
    await service.claudeAgentStopped({ agent_id: 'a000000000000000a', agent_type: TYPE });
    // A late duplicate of A's stop without agent_type (older payloads) holds only A's lock: agent B resumes the
    // session between its lookup and its write (the write below runs B's resume first, as the race would).
    const update = store.update.bind(store);
    let raced = false;
    store.update = async (id, change) => {
      if (!raced) {
        raced = true;
        store.update = update;
        expect(await service.attachClaudeAgent({ agent_id: 'a000000000000000b', agent_type: TYPE })).toMatchObject({
          action: 'relinked',
        });
      }
      return update(id, change);
    };
    const late = (await service.claudeAgentStopped({ agent_id: 'a000000000000000a' }))!;
    expect(raced).toBe(true);
    expect(late).toMatchObject({ action: 'superseded', stop: 'superseded' });
    // B runs the session: its link is not stopped, so no third agent may take it.
    const stored = await service.get(first.state.agent_id);
    expect(stored.phase).toBe('approval');
    expect(stored.claude?.agent_id).toBe('a000000000000000b');
    expect(stored.claude?.stopped_at).toBeUndefined();
    expect(await service.parkedOf(TYPE)).toBeNull();
  });
});

// Issue 20 (10): the library takes Claude agent events too; an agent type no session may be named is refused.
it.each([
  ['ESC', 'x\u001b[2J'],
  ['a bidi override', 'x\u202e'],
  ['blank', '  '],
])('attachClaudeAgent refuses an agent_type with %s (E_USAGE) and creates nothing', async (_label, agentType) => {
  expect(await codeOfAsync(() => sessions.attachClaudeAgent({ agent_id: AGENT, agent_type: agentType }))).toBe(
    'E_USAGE',
  );
  expect(await sessions.list()).toEqual([]);
});

// Issue 22: a sub-agent that dies of a host failure (Claude Code's StopFailure: an API error, a usage limit) gets no
// SubagentStop. Its failure may come before or after its PostToolUse and SubagentStart (background agents: three
// processes at once), may be reported twice, and a SubagentStop may still follow: every order ends the same.
describe('a failure (StopFailure) over every order of one agent’s events', () => {
  const FAIL: ClaudeAgentEvent = {
    agent_id: AGENT,
    agent_type: TYPE,
    session_id: 's1',
    failed: { error: 'rate_limit', message: 'API Error: Request rejected (429) · usage limit reached' },
  };
  type Step = 'post' | 'start' | 'fail' | 'stop';
  const event = (name: Step): ClaudeAgentEvent => (name === 'fail' ? FAIL : EVENTS[name]);

  describe.each([
    ['no parked session', false, 'initializing'],
    ['a parked session', true, 'approval'],
  ])('with %s', (_label, withParked, endPhase) => {
    let natural: SessionState[];
    beforeEach(async () => {
      const store = await storeAt(withParked);
      for (const name of ['post', 'start', 'fail'] as const) await store.attachClaudeAgent(event(name));
      natural = await everything(store);
    });

    it('the natural order leaves one session open in its phase, stopped, interrupted and waiting', () => {
      expect(natural).toHaveLength(1);
      const [state] = natural;
      expect(state!.phase).toBe(endPhase);
      expect(state!.claude).toMatchObject({ agent_id: AGENT, stopped_at: clock.toISOString() });
      expect(state!.interruption).toEqual({
        count: 1,
        carried_on: 0,
        waiting: true,
        at: clock.toISOString(),
        error: 'rate_limit',
        message: 'API Error: Request rejected (429) · usage limit reached',
        phase: endPhase,
        agent_id: AGENT,
      });
      expect(state!.error_count).toBe(0);
      // Version 4 for the interruption (5 in memory, where the session names its project: the store leaves it out).
      expect(withProject(state!, undefined).schema_version).toBe(4);
      expect(state!.history.filter((entry) => entry.event === 'interrupted')).toHaveLength(1);
    });

    it.each(permutations<Step>(['post', 'start', 'fail']))(
      '%s, %s, %s ends in the natural order’s state',
      async (...order) => {
        const store = await storeAt(withParked);
        for (const name of order) await store.attachClaudeAgent(event(name));
        expect(await everything(store)).toEqual(natural);
      },
    );

    it.each(permutations<Step>(['post', 'start', 'fail']))(
      '%s, %s, %s, then a late SubagentStop: still open and waiting (the stop policy does not end it)',
      async (...order) => {
        const store = await storeAt(withParked);
        for (const name of order) await store.attachClaudeAgent(event(name));
        const stopped = await store.attachClaudeAgent(EVENTS.stop);
        expect(stopped).toMatchObject({ stop: 'kept' });
        const [state] = await everything(store);
        const [expected] = natural;
        // The stop adds its last message to the link; nothing else changes.
        expect(state).toEqual({ ...expected, claude: { ...expected!.claude, last_message: 'Plan ready.' } });
      },
    );

    it('the failure reported twice, one after the other or in parallel, records one interruption', async () => {
      const store = await storeAt(withParked);
      for (const name of ['post', 'start', 'fail', 'fail'] as const) await store.attachClaudeAgent(event(name));
      expect(await everything(store)).toEqual(natural);
      const parallel = await storeAt(withParked);
      const outcomes = await Promise.all([
        parallel.attachClaudeAgent(FAIL),
        parallel.attachClaudeAgent(FAIL),
        parallel.attachClaudeAgent(EVENTS.start),
        parallel.attachClaudeAgent(EVENTS.post),
      ]);
      expect(
        outcomes
          .slice(0, 2)
          .map((outcome) => outcome?.interruption)
          .sort(),
      ).toEqual(['already', 'recorded']);
      expect(await everything(parallel)).toEqual(natural);
    });
  });

  it('the next delegation carries the session on, in whatever phase it died, and is told so on its link', async () => {
    const store = await storeAt(false);
    const started = (await store.attachClaudeAgent(EVENTS.start))!;
    for (const phase of ['executing', 'validating'] as const) await store.update(started.state.agent_id, { phase });
    await store.attachClaudeAgent(FAIL);
    const next = (await store.attachClaudeAgent({ agent_id: 'a00000000000000b2', agent_type: TYPE }))!;
    expect(next.action).toBe('relinked');
    expect(next.state).toMatchObject({
      agent_id: started.state.agent_id,
      phase: 'validating',
      interruption: { count: 1, carried_on: 1, waiting: false },
    });
    expect(next.state.claude?.resumed_from).toEqual({
      phase: 'validating',
      last_active: clock.toISOString(),
      agent_id: AGENT,
      interruption: {
        at: clock.toISOString(),
        error: 'rate_limit',
        message: 'API Error: Request rejected (429) · usage limit reached',
      },
    });
    expect(next.state.history.slice(-2).map((entry) => entry.event)).toEqual(['interrupted', 'resume']);
    // Carried on, it is an ordinary running session again: its own stop in validating completes it.
    expect(await store.attachClaudeAgent({ agent_id: 'a00000000000000b2', stopped: {} })).toMatchObject({
      stop: 'completed',
    });
  });

  it('a usage limit that resets hours later: the delegation after the reset still carries the work on', async () => {
    const store = await storeAt(false);
    const started = (await store.attachClaudeAgent(EVENTS.start))!;
    await store.update(started.state.agent_id, { phase: 'executing' });
    await store.attachClaudeAgent(FAIL);
    clock = new Date(clock.getTime() + 5 * 3_600_000);
    expect(await store.attachClaudeAgent({ agent_id: 'a00000000000000b2', agent_type: TYPE })).toMatchObject({
      action: 'relinked',
      state: { agent_id: started.state.agent_id, phase: 'executing' },
    });
  });

  it('the error limit still applies: an interrupted session with 3 errors of its own is not carried on', async () => {
    const store = await storeAt(false);
    const started = (await store.attachClaudeAgent(EVENTS.start))!;
    await store.update(started.state.agent_id, { phase: 'executing' });
    for (let i = 0; i < 3; i++) await store.update(started.state.agent_id, { error: `boom ${i}` });
    await store.attachClaudeAgent(FAIL);
    expect((await store.shouldResume(started.state.agent_id)).reason).toBe('too_many_errors');
    expect(await store.attachClaudeAgent({ agent_id: 'a00000000000000b2', agent_type: TYPE })).toMatchObject({
      action: 'created',
    });
  });

  it('host failures are counted apart from errors: three interruptions leave the session resumable', async () => {
    const store = await storeAt(false);
    const started = (await store.attachClaudeAgent(EVENTS.start))!;
    await store.update(started.state.agent_id, { phase: 'executing' });
    let agent = AGENT;
    for (let i = 1; i <= 3; i++) {
      await store.attachClaudeAgent({ ...FAIL, agent_id: agent });
      agent = `a00000000000000c${i}`;
      expect(await store.attachClaudeAgent({ agent_id: agent, agent_type: TYPE })).toMatchObject({
        action: 'relinked',
      });
    }
    const state = await store.get(started.state.agent_id);
    expect(state).toMatchObject({ error_count: 0, interruption: { count: 3, carried_on: 3, waiting: false } });
  });

  it('a late failure of an agent whose session a later agent carried on changes nothing (superseded)', async () => {
    const store = await storeAt(false);
    await store.attachClaudeAgent(EVENTS.start);
    await store.attachClaudeAgent(FAIL);
    await store.attachClaudeAgent({ agent_id: 'a00000000000000b2', agent_type: TYPE });
    const before = await everything(store);
    expect(await store.attachClaudeAgent(FAIL)).toMatchObject({ action: 'superseded', interruption: 'superseded' });
    expect(await everything(store)).toEqual(before);
  });

  it('a failure after the session ended records nothing', async () => {
    const store = await storeAt(false);
    const started = (await store.attachClaudeAgent(EVENTS.start))!;
    await store.finalize(started.state.agent_id, 'completed');
    const before = await everything(store);
    expect(await store.attachClaudeAgent(FAIL)).toMatchObject({ interruption: 'already_final' });
    expect(await everything(store)).toEqual(before);
  });

  it('cleanup leaves an interrupted session initializing alone (it is not an orphaned start), until its horizon', async () => {
    const store = await storeAt(false);
    await store.attachClaudeAgent(EVENTS.start);
    await store.attachClaudeAgent(FAIL);
    clock = new Date(clock.getTime() + 3 * 3_600_000);
    expect(await store.cleanup({ hours: 24 })).toMatchObject({ abandoned: [], removed: [] });
    clock = new Date(clock.getTime() + 22 * 3_600_000);
    expect((await store.cleanup({ hours: 24 })).removed).toHaveLength(1);
  });
});

describe('a stopped agent continued with its context (SendMessage, issue 34)', () => {
  const start = { ...EVENTS.start, started: true as const };

  it('its start again runs the same session (continued), its next stop applies the stop policy as before', async () => {
    await sessions.attachClaudeAgent(start);
    const first = (await sessions.attachClaudeAgent(EVENTS.start))!.state;
    await sessions.update(first.agent_id, { phase: 'planning' });
    const parked = await sessions.claudeAgentStopped({ ...EVENTS.stop, last_message: 'Plan ready.' });
    expect(parked?.stop).toBe('kept');
    clock = new Date(clock.getTime() + 60_000);
    // A start nobody asked to continue is the same run's own, late: it links and runs nothing again.
    expect((await sessions.attachClaudeAgent(start))!.action).toBe('linked');
    expect(await sessions.parkedOf(TYPE)).not.toBeNull();
    await sessions.recordContinuation(first.agent_id, { choice: 'continue', reason: 'r', claude_agent_id: AGENT });
    const back = (await sessions.attachClaudeAgent({ ...start, session_id: 's2' }))!;
    expect(back.action).toBe('continued');
    expect(back.state.agent_id).toBe(first.agent_id);
    expect(back.state.claude).toMatchObject({ agent_id: AGENT, session_id: 's2' });
    expect(back.state.claude?.stopped_at).toBeUndefined();
    expect(back.state.history.at(-1)?.event).toBe('continue');
    expect(await sessions.parkedOf(TYPE)).toBeNull();
    // A repeated start of the running agent writes nothing more.
    expect((await sessions.attachClaudeAgent(start))!.action).toBe('linked');
    await sessions.update(first.agent_id, { phase: 'executing' });
    await sessions.update(first.agent_id, { phase: 'validating' });
    const done = (await sessions.claudeAgentStopped(EVENTS.stop))!;
    expect(done.stop).toBe('completed');
    expect(await everything(sessions)).toHaveLength(1);
  });

  it('an agent killed by an API error is continued the same way, and a second failure is recorded', async () => {
    const first = (await sessions.attachClaudeAgent(start))!.state;
    await sessions.update(first.agent_id, { phase: 'executing' });
    expect((await sessions.claudeAgentFailed({ ...EVENTS.start, error: 'unknown' }))?.interruption).toBe('recorded');
    expect((await sessions.attachClaudeAgent(start))!.action).toBe('linked');
    await sessions.recordContinuation(first.agent_id, { choice: 'continue', reason: 'r', claude_agent_id: AGENT });
    const back = (await sessions.attachClaudeAgent(start))!;
    expect(back.action).toBe('continued');
    expect(back.state.interruption).toMatchObject({ waiting: false, carried_on: 1 });
    expect((await sessions.claudeAgentFailed({ ...EVENTS.start, error: 'unknown' }))?.interruption).toBe('recorded');
    expect(await everything(sessions)).toHaveLength(1);
  });

  it('a start after the session ended continues nothing', async () => {
    const first = (await sessions.attachClaudeAgent(start))!.state;
    await sessions.update(first.agent_id, { phase: 'executing' });
    await sessions.update(first.agent_id, { phase: 'validating' });
    await sessions.claudeAgentStopped(EVENTS.stop);
    const again = (await sessions.attachClaudeAgent(start))!;
    expect(again.action).toBe('linked');
    expect(again.state.phase).toBe('completed');
  });
});
