// Guarantee (issue 40 item 10): a grant past its expiry is never revived by the clock stepping back. The machine's
// clock is stepped through the bins' test hook (AGENT_SESSION_TEST_CLOCK_OFFSET_MS, app/call.ts: the process clock
// moved by that much, as NTP or a user stepping it would): the user approves a parked call (24 h grant), the clock jumps
// past the expiry and the agent asks the identical call (refused: expired), then the clock steps back to before the
// expiry and the agent asks again: still refused, and the grant is on record as expired. Run twice: in a headless run
// (the refused call is parked again as a new inbox item) and with the session attended (Claude Code asks the user
// itself, so the hook answers nothing and would otherwise write nothing).
import { join } from 'node:path';
import { makeTemp, removeTemp } from './helpers';
import { askPayload, behaviour, grantProject, parkedGrantSession, resumeBy } from './grant-flow';

const FIRST = 'a1000000000000001';
const NEXT = 'a1000000000000002';
const CALL = { command: 'touch GRANTED-FILE', description: 'scripted command' };
const HOUR = 3_600_000;

let root: string;
beforeEach(() => {
  root = makeTemp();
});
afterEach(() => removeTemp(root));

it.each([
  ['a headless run (the late ask parked again)', '0'],
  ['an attended session (the hook answers nothing)', '1'],
])('%s: a grant seen past its expiry stays expired when the clock steps back', (_name, attended) => {
  const p = grantProject(join(root, attended), [FIRST, NEXT]);
  const id = parkedGrantSession(p, FIRST, CALL);
  expect(p.user(['approve', id]).status).toBe(0);
  resumeBy(p, NEXT);
  const grant = p.state(id).permission_requests![0]!;
  expect(grant.status).toBe('approved');
  const ttl = Date.parse(grant.expires_at!) - Date.now();
  expect(ttl).toBeGreaterThan(HOUR);

  // The clock jumps an hour past the expiry: the identical call is not allowed.
  const told = { CLAUDE_CODE_SESSION_ATTENDED: attended };
  const late = p.hook(askPayload(NEXT, CALL), { ...told, AGENT_SESSION_TEST_CLOCK_OFFSET_MS: String(ttl + HOUR) });
  expect(late.status).toBe(0);
  expect(behaviour(late.stdout)).not.toBe('allow');
  expect(p.state(id).permission_requests![0]).toMatchObject({ status: 'expired' });

  // The clock steps back to now, before the expiry: the grant seen expired is not revived.
  const back = p.hook(askPayload(NEXT, CALL), told);
  expect(back.status).toBe(0);
  expect(behaviour(back.stdout)).not.toBe('allow');
  const requests = p.state(id).permission_requests!;
  expect(requests[0]).toMatchObject({ status: 'expired' });
  expect(requests.filter((request) => request.status === 'spent')).toEqual([]);
});
