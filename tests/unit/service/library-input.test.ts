import { codeOfAsync } from '../../helpers';
import { openStore, shouldResume } from '../../../src/app/library';
import type { Sessions } from '../../../src/service/sessions';
import type { MemoryStore } from '../../../src/store/memory-store';
import { memorySessions } from '../../support/sessions';

// Issue 10 items 7 and 9: the library takes only what the CLI takes, and writes nothing it would refuse to read.
let store: MemoryStore;
let sessions: Sessions;
beforeEach(() => {
  ({ sessions, store } = memorySessions({ now: () => new Date('2026-01-08T18:00:00.000Z') }));
});

/** The ids of every entry the store holds, valid or not. */
const stored = async (): Promise<string[]> => (await store.list()).map((entry) => entry.id);
const deep = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};
const cycle: Record<string, unknown> = {};
cycle.self = cycle;

describe('library input', () => {
  it.each([
    ['a numeric purpose', { agent_name: 'a', purpose: 5 }],
    ['a missing purpose', { agent_name: 'a' }],
    ['text metadata', { agent_name: 'a', purpose: 'p', metadata: 'str' }],
    ['array metadata', { agent_name: 'a', purpose: 'p', metadata: [1, 2] }],
    ['BigInt metadata', { agent_name: 'a', purpose: 'p', metadata: { n: 10n } }],
    ['a function in metadata', { agent_name: 'a', purpose: 'p', metadata: { f: () => 1 } }],
    ['undefined in metadata', { agent_name: 'a', purpose: 'p', metadata: { u: undefined } }],
    ['NaN in metadata', { agent_name: 'a', purpose: 'p', metadata: { n: Number.NaN } }],
    ['a Date in metadata', { agent_name: 'a', purpose: 'p', metadata: { d: new Date(0) } }],
    ['a Map as metadata', { agent_name: 'a', purpose: 'p', metadata: new Map() }],
    ['metadata nested 101 levels', { agent_name: 'a', purpose: 'p', metadata: deep(101) }],
    ['cyclic metadata', { agent_name: 'a', purpose: 'p', metadata: cycle }],
    ['a numeric agent name', { agent_name: 7, purpose: 'p' }],
    ['a blank agent name', { agent_name: ' ', purpose: 'p' }],
    ['an agent name with ESC', { agent_name: 'a\u001b[2J', purpose: 'p' }],
    ['an agent name with NUL', { agent_name: 'a\u0000', purpose: 'p' }],
    ['an agent name with a right-to-left override', { agent_name: 'a\u202eb', purpose: 'p' }],
    ['metadata past 1 MiB as JSON', { agent_name: 'a', purpose: 'p', metadata: { x: 'é'.repeat(600 * 1024) } }],
    ['no object', null],
  ])('create refuses %s with E_USAGE and writes nothing', async (_label, input) => {
    expect(await codeOfAsync(() => sessions.create(input as never))).toBe('E_USAGE');
    expect(await stored()).toEqual([]);
  });

  it('create takes JSON metadata 100 levels deep', async () => {
    expect(
      await codeOfAsync(() => sessions.create({ agent_name: 'a', purpose: 'p', metadata: deep(99) })),
    ).toBeUndefined();
  });

  it.each([
    ['text metadata', { metadata: 'str' }],
    ['BigInt metadata', { metadata: { n: 1n } }],
    ['a bad phase', { phase: 'dancing' }],
    ['a numeric error', { error: 5 }],
  ])('update refuses %s with E_USAGE and changes nothing', async (_label, change) => {
    const state = await sessions.create({ agent_name: 'a', purpose: 'p', id: 's' });
    expect(await codeOfAsync(() => sessions.update('s', change as never))).toBe('E_USAGE');
    expect(await sessions.get('s')).toEqual(state);
  });

  it('update refuses a merge past 1 MiB in all (E_USAGE), and takes one that shrinks an oversized session', async () => {
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 's', metadata: { a: 'x'.repeat(700 * 1024) } });
    const before = await sessions.get('s');
    expect(await codeOfAsync(() => sessions.update('s', { metadata: { b: 'y'.repeat(400 * 1024) } }))).toBe('E_USAGE');
    expect(await sessions.get('s')).toEqual(before);
    // An older version let this one grow past the limit: trimming it is still possible.
    store.putRaw('big', JSON.stringify({ ...before, agent_id: 'big', metadata: { a: 'x'.repeat(2 << 20), b: 1 } }));
    expect(await codeOfAsync(() => sessions.update('big', { metadata: { c: 1 } }))).toBe('E_USAGE');
    expect(await codeOfAsync(() => sessions.update('big', { metadata: { a: null } }))).toBeUndefined();
  });

  it.each([
    ['an outcome that is not final', ['planning']],
    ['a numeric summary', ['completed', 5]],
  ])('finalize refuses %s with E_USAGE', async (_label, args) => {
    const state = await sessions.create({ agent_name: 'a', purpose: 'p', id: 's' });
    expect(await codeOfAsync(() => sessions.finalize('s', ...(args as [never, never])))).toBe('E_USAGE');
    expect(await sessions.get('s')).toEqual(state);
  });
});

describe('library cleanup, openStore and shouldResume input', () => {
  it.each([
    ['negative hours', { hours: -1 }],
    ['hours as text', { hours: '5' }],
    ['NaN hours', { hours: Number.NaN }],
    ['infinite hours', { hours: Number.POSITIVE_INFINITY }],
    ['no hours', {}],
    ['a text instead of options', 'x'],
    ['null instead of options', null],
    ['dryRun as text', { hours: 1, dryRun: 'yes' }],
  ])('cleanup refuses %s with E_USAGE', async (_label, options) => {
    expect(await codeOfAsync(() => sessions.cleanup(options as never))).toBe('E_USAGE');
  });

  it('cleanup takes a number of hours', async () => {
    expect((await sessions.cleanup({ hours: 0.5 })).removed).toEqual([]);
  });

  it.each([
    ['a numeric dir', { dir: 5 }],
    ['a numeric cwd', { cwd: 5 }],
    ['a text instead of options', 'x'],
  ])('openStore refuses %s with E_USAGE', async (_label, options) => {
    expect(await codeOfAsync(() => openStore(options as never))).toBe('E_USAGE');
  });

  it.each([
    ['null', null],
    ['an empty object', {}],
    ['a text', 'x'],
  ])('shouldResume refuses %s with E_USAGE', async (_label, state) => {
    expect(await codeOfAsync(() => shouldResume(state as never))).toBe('E_USAGE');
  });

  it('shouldResume still answers for a real state', async () => {
    const state = await sessions.create({ agent_name: 'a', purpose: 'p' });
    const answer = await shouldResume(state, { now: new Date('2026-01-08T18:00:00.000Z') });
    expect(answer).toEqual({ should_resume: false, reason: 'phase_not_resumable' });
  });
});
