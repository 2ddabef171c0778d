import { capHistory, resumeCount, withResume } from '../../../src/core/history';
import { newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';
import { parseState } from '../../../src/core/state';
import type { Sessions } from '../../../src/service/sessions';
import { memorySessions } from '../../support/sessions';

/** The history chain: each from_phase is the previous to_phase, and the last to_phase is the phase. */
function chainHolds(state: SessionState): boolean {
  for (let i = 1; i < state.history.length; i++)
    if (state.history[i]!.from_phase !== state.history[i - 1]!.to_phase) return false;
  const last = state.history.at(-1);
  return last === undefined || last.to_phase === state.phase;
}

describe('history cap and resume entries', () => {
  let clock: number;
  let sessions: Sessions;
  beforeEach(() => {
    clock = Date.parse('2026-01-08T18:00:00.000Z');
    ({ sessions } = memorySessions({ now: () => new Date((clock += 1000)), historyCap: 5 }));
  });

  it('capHistory leaves a short history alone', () => {
    const state = newSession({ agent_id: 'a', agent_name: 'n', purpose: 'p' }, new Date());
    expect(capHistory(state, 3)).toBe(state);
  });

  it('keeps the newest entries, counts the dropped ones, and the chain still holds', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'n', purpose: 'p' });
    for (let i = 0; i < 6; i++) {
      await sessions.update(agent_id, { phase: 'planning' });
      await sessions.update(agent_id, { phase: 'approval' });
    }
    const state = await sessions.get(agent_id);
    expect(state.history).toHaveLength(5);
    expect(state.history_dropped).toBe(7);
    expect(state.history.at(-1)!.to_phase).toBe('approval');
    expect(chainHolds(state)).toBe(true);
    // What was written is what the store schema accepts.
    expect(parseState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('an update to the current phase adds no history entry', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'n', purpose: 'p' });
    await sessions.update(agent_id, { phase: 'planning' });
    await sessions.update(agent_id, { phase: 'planning' });
    expect((await sessions.get(agent_id)).history).toHaveLength(1);
  });

  it('recordResume adds a resume entry that keeps the phase and the chain, and marks the session active', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'n', purpose: 'p' });
    const before = await sessions.update(agent_id, { phase: 'approval' });
    const after = await sessions.recordResume(agent_id);
    expect(after.phase).toBe('approval');
    expect(after.history.at(-1)).toEqual({
      from_phase: 'approval',
      to_phase: 'approval',
      timestamp: after.last_updated,
      event: 'resume',
    });
    expect(Date.parse(after.last_updated)).toBeGreaterThan(Date.parse(before.last_updated));
    expect(resumeCount(after)).toBe(1);
    expect(chainHolds(after)).toBe(true);
    expect(await sessions.get(agent_id)).toEqual(after);
  });

  it('recordResume refuses a final session', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'n', purpose: 'p' });
    await sessions.finalize(agent_id, 'completed');
    await expect(sessions.recordResume(agent_id)).rejects.toThrow(
      expect.objectContaining({ code: 'E_ILLEGAL_TRANSITION' }),
    );
    const final = await sessions.get(agent_id);
    expect(() => withResume(final, new Date())).toThrow(expect.objectContaining({ code: 'E_ILLEGAL_TRANSITION' }));
  });

  it('recordResume on a missing session is E_NOT_FOUND', async () => {
    await expect(sessions.recordResume('nope')).rejects.toThrow(expect.objectContaining({ code: 'E_NOT_FOUND' }));
  });

  it('the cap also applies to resume entries', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'n', purpose: 'p' });
    await sessions.update(agent_id, { phase: 'approval' });
    for (let i = 0; i < 8; i++) await sessions.recordResume(agent_id);
    const state = await sessions.get(agent_id);
    expect(state.history).toHaveLength(5);
    expect(state.history_dropped).toBe(4);
    expect(chainHolds(state)).toBe(true);
  });

  it('resumes the cap drops are still counted', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'n', purpose: 'p' });
    await sessions.update(agent_id, { phase: 'approval' });
    for (let i = 0; i < 3; i++) await sessions.recordResume(agent_id);
    for (const phase of ['planning', 'approval', 'planning', 'approval', 'planning'] as const)
      await sessions.update(agent_id, { phase });
    const state = await sessions.get(agent_id);
    expect(state.history.some((entry) => entry.event === 'resume')).toBe(false);
    expect(state.history_dropped).toBe(4);
    expect(state.resumes_dropped).toBe(3);
    expect(resumeCount(state)).toBe(3);
    expect(parseState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('a cap that drops no resume adds no resumes_dropped', async () => {
    const { agent_id } = await sessions.create({ agent_name: 'n', purpose: 'p' });
    for (const phase of ['planning', 'approval', 'planning', 'approval', 'planning', 'approval', 'planning'] as const)
      await sessions.update(agent_id, { phase });
    const state = await sessions.get(agent_id);
    expect(state.history_dropped).toBe(2);
    expect(state).not.toHaveProperty('resumes_dropped');
  });
});
