// Sessions.spendPermission and a clock that steps (issue 40 item 10): a grant the hook finds past its expiry is stored
// expired, so the clock stepping back never revives it. tests/stress/grant-clock.stress.ts plays the same through the
// built bins.
import type { Sessions } from '../../../src/service/sessions';
import { memorySessions } from '../../support/sessions';

const HOUR = 3_600_000;
const AGENT = 'a1111111111111111';
const ask = { tool: 'Bash', input: { command: 'touch FILE' }, claudeAgentId: AGENT, cwd: '/p' };

let clock: number;
let sessions: Sessions;
beforeEach(() => {
  clock = Date.parse('2026-12-07T06:00:00.000Z');
  ({ sessions } = memorySessions({ now: () => new Date(clock) }));
});

/** A session of agent AGENT parked on `ask`, then approved (a 24-hour grant): its id. */
async function granted(): Promise<string> {
  const id = (await sessions.attachClaudeAgent({ agent_id: AGENT, agent_type: 'builder' }))!.state.agent_id;
  await sessions.update(id, { phase: 'executing' });
  expect(await sessions.parkPermission(ask)).not.toBeNull();
  await sessions.approve(id);
  return id;
}

it('a grant seen past its expiry is stored expired: the clock stepping back does not revive it', async () => {
  const id = await granted();
  clock += 25 * HOUR;
  expect(await sessions.spendPermission(ask)).toBeNull();
  expect((await sessions.get(id)).permission_requests![0]).toMatchObject({ status: 'expired' });
  clock -= 25 * HOUR;
  expect(await sessions.spendPermission(ask)).toBeNull();
  expect((await sessions.get(id)).permission_requests![0]).toMatchObject({ status: 'expired' });
});

it('a grant asked for another call past its expiry is stored expired too (it was seen)', async () => {
  const id = await granted();
  clock += 25 * HOUR;
  expect(await sessions.spendPermission({ ...ask, input: { command: 'touch OTHER' } })).toBeNull();
  clock -= 25 * HOUR;
  expect(await sessions.spendPermission(ask)).toBeNull();
  expect((await sessions.get(id)).permission_requests![0]).toMatchObject({ status: 'expired' });
});

it('a live grant is spent once, and nothing is written when no grant is there or lapsed', async () => {
  const id = await granted();
  clock += HOUR;
  expect((await sessions.spendPermission(ask))?.permission_requests![0]).toMatchObject({ status: 'spent' });
  const after = await sessions.get(id);
  clock += 25 * HOUR;
  expect(await sessions.spendPermission(ask)).toBeNull();
  expect(await sessions.get(id)).toEqual(after);
});
