// Who may record into a session without a prompt (isRecordingAgent), and the refusal's reason when not
// (recordingRefusal): `record` names it, so a stopped agent reads "its agent stopped", never "expected X, got X".
import { isRecordingAgent, recordingRefusal, withClaudeLink } from '../../../src/core/claude-link';
import { applyChange, finalizeState, newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';

const t0 = new Date('2026-01-08T18:00:00.000Z');
const ID = 'agent-20260108-180000-0c000001';
const THREAD = '01a213e0-09bc-7461-8b24-0ff084f8a3e0';

const linked = (): SessionState =>
  withClaudeLink(
    applyChange(newSession({ agent_id: ID, agent_name: 'planner', purpose: 'p' }, t0), { phase: 'planning' }, t0),
    { agent_id: THREAD },
    t0,
  );

describe('recordingRefusal', () => {
  it('is null exactly when the agent may record (its own open session, not stopped)', () => {
    expect(recordingRefusal(linked(), ID, THREAD)).toBeNull();
    expect(isRecordingAgent(linked(), THREAD)).toBe(true);
  });

  it.each<[string, SessionState | null, string, RegExp]>([
    ['no session linked to the agent', null, ID, /^no session linked/],
    ['another session linked to it', linked(), 'agent-20260108-180000-0c000002', new RegExp(`session \`${ID}\``)],
    ['its agent stopped', withClaudeLink(linked(), { stopped: true }, t0), ID, /^its agent stopped \(at 2026-01-08/],
    ['the session ended', finalizeState(linked(), 'completed', undefined, t0), ID, /ended \(`completed`\)/],
    [
      'the session linked to another agent since',
      withClaudeLink(linked(), { agent_id: 'other-thread' }, t0),
      ID,
      /another agent/,
    ],
  ])('says why not: %s', (_label, state, id, reason) => {
    const refusal = recordingRefusal(state, id, THREAD);
    expect(refusal).toMatch(reason);
    if (state !== null && state.agent_id === id) expect(isRecordingAgent(state, THREAD)).toBe(false);
  });
});
