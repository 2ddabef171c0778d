import { approveState } from '../../../src/core/decision';
import { withResume } from '../../../src/core/history';
import { parkForPermission, spendGrant, type PermissionAsk } from '../../../src/core/permission';
import { applyChange, newSession } from '../../../src/core/session';
import {
  carriesOn,
  delegatedTaskOf,
  holdsForItsTask,
  mayTake,
  sameTask,
  takeover,
  taskLine,
  TASK_DESCRIPTION_LIMIT,
  TASK_PROMPT_LIMIT,
  withPassedOver,
  withPassedOverId,
  withTask,
  type DelegatedTask,
  type TakeoverReason,
} from '../../../src/core/task';
import {
  parseState,
  PROJECT_SCHEMA_VERSION,
  SEALED_SCHEMA_VERSION,
  TASK_SCHEMA_VERSION,
  type SessionState,
} from '../../../src/core/state';
import { AT_TERMINAL } from '../../support/origin';

const t0 = new Date('2026-12-07T06:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const roundTrip = (state: SessionState) => parseState(JSON.parse(JSON.stringify(state)));
const fresh = (): SessionState =>
  newSession({ agent_id: 'agent-1', agent_name: 'writer', purpose: 'p', project: 'proj' }, t0);
const RUN1: DelegatedTask = { description: 'Continue test', prompt: 'TASK run1: CMD:echo R1-CONTEXT-c64877b9' };
const RUN2: DelegatedTask = { description: 'Audit the logs', prompt: 'TASK run2: list every error in logs/' };
const ask: PermissionAsk = { tool: 'Bash', input: { command: 'touch F' }, claudeAgentId: 'a0000000000000001' };

/** A session of RUN1 in each state a delegation may meet it in. */
const states = {
  executing: () => withTask(applyChange(fresh(), { phase: 'executing' }, at(1)), RUN1, at(1)),
  approval: () => applyChange(states.executing(), { phase: 'approval' }, at(2)),
  approved: () => approveState(states.approval(), {}, AT_TERMINAL, at(3)),
  permission: () => parkForPermission(states.executing(), ask, at(2)),
  granted: () => approveState(states.permission(), { grantTtlHours: 1 }, AT_TERMINAL, at(3)),
  // Picked up (the resume that ends the approval's wait), then spent by its agent.
  resumed: () => withResume(states.granted(), at(4)),
  spent: () => spendGrant(states.resumed(), 0, ask.claudeAgentId, at(4)),
  untasked: () => parkForPermission(applyChange(fresh(), { phase: 'executing' }, at(1)), ask, at(2)),
};

describe('delegatedTaskOf', () => {
  it.each<[string, unknown, DelegatedTask | null]>([
    [
      'Claude Code 2.1.337',
      { description: 'Continue test', prompt: 'TASK run1', subagent_type: 't' },
      {
        description: 'Continue test',
        prompt: 'TASK run1',
      },
    ],
    ['a JSON string', JSON.stringify({ description: ' d ', prompt: 'p' }), { description: 'd', prompt: 'p' }],
    ['only a prompt', { prompt: 'p' }, { prompt: 'p' }],
    ['blank words', { description: '  ', prompt: '' }, null],
    ['no words', { subagent_type: 't' }, null],
    ['words of another type', { description: 3, prompt: ['p'] }, null],
    ['not JSON', 'description: x', null],
    ['an array', ['x'], null],
    ['nothing', undefined, null],
  ])('%s', (_name, input, expected) => {
    expect(delegatedTaskOf(input)).toEqual(expected);
  });

  it('cuts the description and the prompt to their limits', () => {
    const task = delegatedTaskOf({ description: 'd'.repeat(1000), prompt: 'p'.repeat(5000) })!;
    expect(task.description).toHaveLength(TASK_DESCRIPTION_LIMIT);
    expect(task.prompt).toHaveLength(TASK_PROMPT_LIMIT);
    expect(task.prompt!.endsWith('…')).toBe(true);
  });
});

describe('sameTask', () => {
  const long = 'Refactor the billing module so that every invoice line carries its tax rate';
  it.each<[string, DelegatedTask, DelegatedTask, boolean]>([
    ['the same words', RUN1, RUN1, true],
    ['the description in another case and spacing', RUN1, { ...RUN1, description: ' continue   TEST ' }, true],
    ['the same description, a reworded prompt', RUN1, { ...RUN1, prompt: 'the user approved: go on' }, true],
    [
      'the same prompt start, another description',
      { description: 'a', prompt: long },
      {
        description: 'b',
        prompt: `${long}, then run the tests`,
      },
      true,
    ],
    ['both parts differ', RUN1, RUN2, false],
    ['a short prompt is compared whole', { prompt: 'fix it' }, { prompt: 'fix it and delete the repo' }, false],
    ['only one side has a description, the prompts differ', { prompt: 'a'.repeat(50) }, RUN2, false],
    ['nothing to compare', { description: 'a' }, { prompt: 'b' }, true],
  ])('%s', (_name, a, b, expected) => {
    expect(sameTask(a, b)).toBe(expected);
    expect(sameTask(b, a)).toBe(expected);
  });
});

describe('takeover (the guard)', () => {
  it.each<[keyof typeof states, DelegatedTask | null, TakeoverReason]>([
    ['approval', RUN2, 'other_task'],
    ['approval', RUN1, 'same_task'],
    ['approval', null, 'no_task'],
    ['approved', RUN2, 'other_task'],
    ['permission', RUN2, 'other_task'],
    ['granted', RUN2, 'other_task'],
    ['granted', { ...RUN1, prompt: 'go on' }, 'same_task'],
    ['resumed', RUN2, 'other_task'],
    ['spent', RUN2, 'nothing_held'],
    ['executing', RUN2, 'nothing_held'],
    ['untasked', RUN2, 'no_parked_task'],
  ])('a session %s, a delegation of %j: %s', (state, incoming, reason) => {
    const parked = states[state]();
    expect(takeover(parked, incoming, at(5))).toBe(reason);
    expect(mayTake(reason)).toBe(reason !== 'other_task');
    expect(carriesOn(parked, incoming, at(5))).toBe(reason === 'same_task');
  });

  it('a grant past its expiry, picked up, holds nothing', () => {
    expect(holdsForItsTask(states.resumed(), at(30))).toBe(true);
    expect(holdsForItsTask(states.resumed(), at(3 + 61))).toBe(false);
    expect(takeover(states.resumed(), RUN2, at(3 + 61))).toBe('nothing_held');
  });
});

describe('the record (schema 14)', () => {
  it('withTask records the words and when, and the version; the same words again change nothing', () => {
    const tasked = withTask(fresh(), RUN1, at(1));
    expect(tasked.task).toEqual({ ...RUN1, at: at(1).toISOString() });
    expect(tasked.schema_version).toBe(TASK_SCHEMA_VERSION);
    expect(roundTrip(tasked)).toEqual(tasked);
    expect(withTask(tasked, RUN1, at(2))).toBe(tasked);
    expect(withTask(tasked, RUN2, at(2)).task).toEqual({ ...RUN2, at: at(2).toISOString() });
  });

  it('passed over: the delegation recorded beside its own task, forgotten when its own task comes again', () => {
    const passed = withPassedOver(states.granted(), RUN2, at(4));
    expect(passed.task).toMatchObject({ ...RUN1, passed_over: { ...RUN2, at: at(4).toISOString() } });
    expect(roundTrip(passed)).toEqual(passed);
    const again = withTask(passed, RUN1, at(5));
    expect(again.task).toEqual({ ...RUN1, at: at(5).toISOString() });
  });

  it('the session made beside names the one passed over, and keeps it when its words come', () => {
    const beside = withPassedOverId(fresh(), 'agent-20261207-060000-00000000', at(1));
    expect(beside.task).toEqual({ at: at(1).toISOString(), passed_over_id: 'agent-20261207-060000-00000000' });
    expect(roundTrip(beside)).toEqual(beside);
    expect(withTask(beside, RUN2, at(2)).task).toMatchObject({ ...RUN2, passed_over_id: beside.task!.passed_over_id });
  });

  it('a file without the field keeps its version; one naming 14 without a task is refused', () => {
    const old = { ...fresh(), schema_version: PROJECT_SCHEMA_VERSION } as SessionState;
    expect(roundTrip(old)).toEqual(old);
    const sealed = roundTrip(states.granted());
    expect(sealed.schema_version).toBe(TASK_SCHEMA_VERSION);
    expect(() => parseState({ ...old, schema_version: TASK_SCHEMA_VERSION })).toThrow(/expected 5 \(a project\)/);
    const { task: _task, ...untasked } = states.granted();
    expect(() => parseState(untasked)).toThrow(/expected 13 \(a sealed decision or grant\)|expected 12|expected 8/);
    expect(SEALED_SCHEMA_VERSION).toBeLessThan(TASK_SCHEMA_VERSION);
  });

  it('taskLine: the description, then the prompt in one line', () => {
    expect(taskLine(undefined)).toBeNull();
    expect(taskLine({ description: 'd' })).toBe('d');
    expect(taskLine({ prompt: 'line one\n  line two' })).toBe('line one line two');
    expect(taskLine(RUN1)).toBe('Continue test: TASK run1: CMD:echo R1-CONTEXT-c64877b9');
  });
});
