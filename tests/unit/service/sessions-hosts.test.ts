// One store for all hosts: Claude Code's and Codex's hooks write to the same store, each session names its host, and
// every lookup that decides a resume or a relink (an agent's newest, the parked ones, an attach) sees only its own
// host's sessions, even when another host's session of the same agent name is the newer one.
import type { Host } from '../../../src/core/host';
import { Sessions } from '../../../src/service/sessions';
import { MemoryStore } from '../../../src/store/memory-store';
import { AT_TERMINAL } from '../../support/origin';

const AGENT = 'terraform-architect';
let clock: Date;
let store: MemoryStore;
let claude: Sessions;
let codex: Sessions;

beforeEach(() => {
  clock = new Date('2026-11-25T12:00:00.000Z');
  store = new MemoryStore({ now: () => clock });
  let n = 0;
  const open = (host?: Host) =>
    new Sessions({
      store,
      ...(host === undefined ? {} : { host }),
      randomHex: () => (n++).toString(16).padStart(8, '0'),
      decisionOrigin: () => AT_TERMINAL,
    });
  claude = open();
  codex = open('codex');
});

const later = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

/** A sub-agent of `sessions`' host starts, records approval and stops: its session is parked. */
async function park(sessions: Sessions, agentId: string): Promise<string> {
  const started = (await sessions.attachClaudeAgent({ agent_id: agentId, agent_type: AGENT }))!;
  later(1);
  await sessions.update(started.state.agent_id, { phase: 'approval' });
  later(1);
  await sessions.claudeAgentStopped({ agent_id: agentId, agent_type: AGENT, last_message: 'plan ready' });
  later(1);
  return started.state.agent_id;
}

it('a service answers Claude Code unless told otherwise; its sessions name no host', async () => {
  expect(claude.host).toBe('claude-code');
  const id = await park(claude, 'a0000000000000001');
  expect((await store.read(id))?.host).toBeUndefined();
  expect((await store.read(id))?.schema_version).toBe(5);
});

it('a Codex sub-agent’s session names codex, and Claude Code never resumes it (nor the other way round)', async () => {
  const codexId = await park(codex, '01a213db-0000-7000-8000-000000000001');
  expect(await store.read(codexId)).toMatchObject({ host: 'codex', schema_version: 6, phase: 'approval' });
  expect(await claude.parkedOf(AGENT)).toBeNull();
  expect(await claude.parkedSessions()).toEqual([]);
  const claudeStart = (await claude.attachClaudeAgent({ agent_id: 'a0000000000000002', agent_type: AGENT }))!;
  expect(claudeStart.action).toBe('created');
  expect(claudeStart.state.host).toBeUndefined();
  expect((await store.read(codexId))?.claude?.agent_id).toBe('01a213db-0000-7000-8000-000000000001');
  // The Claude Code session is now the agent name's newest; Codex still finds its own parked one.
  expect((await codex.parkedOf(AGENT))?.agent_id).toBe(codexId);
  expect((await codex.parkedSessions()).map((s) => s.agent_id)).toEqual([codexId]);
  const codexStart = (await codex.attachClaudeAgent({
    agent_id: '01a213db-0000-7000-8000-000000000002',
    agent_type: AGENT,
  }))!;
  expect(codexStart).toMatchObject({ action: 'relinked', state: { agent_id: codexId, host: 'codex' } });
});

it('each host lists its own parked sessions when both parked one of the same agent name', async () => {
  const claudeId = await park(claude, 'a0000000000000003');
  const codexId = await park(codex, '01a213db-0000-7000-8000-000000000003');
  expect((await claude.parkedSessions()).map((s) => s.agent_id)).toEqual([claudeId]);
  expect((await codex.parkedSessions()).map((s) => s.agent_id)).toEqual([codexId]);
  expect((await claude.resumeNewestOf(AGENT))?.agent_id).toBe(claudeId);
  // The listing is every host's: list, show and report name each session's host.
  const listed = (await claude.list()).map((entry) => [entry.id, entry.kind === 'valid' && entry.state.host]);
  expect(listed).toEqual([
    [claudeId, undefined],
    [codexId, 'codex'],
  ]);
});

it('an opencode sub-agent’s session names opencode (schema 11); no other host takes it, nor it theirs', async () => {
  const opencode = new Sessions({
    store,
    host: 'opencode',
    randomHex: () => 'ffffff00',
    decisionOrigin: () => AT_TERMINAL,
  });
  const claudeId = await park(claude, 'a0000000000000004');
  const codexId = await park(codex, '01a213db-0000-7000-8000-000000000004');
  expect(await opencode.parkedOf(AGENT)).toBeNull();
  const openId = await park(opencode, 'call_opencode_1');
  expect(await store.read(openId)).toMatchObject({ host: 'opencode', schema_version: 11, phase: 'approval' });
  expect((await claude.parkedOf(AGENT))?.agent_id).toBe(claudeId);
  expect((await codex.parkedOf(AGENT))?.agent_id).toBe(codexId);
  expect((await opencode.parkedSessions()).map((s) => s.agent_id)).toEqual([openId]);
  const resumed = (await opencode.attachClaudeAgent({ agent_id: 'call_opencode_2', agent_type: AGENT }))!;
  expect(resumed).toMatchObject({ action: 'relinked', state: { agent_id: openId, host: 'opencode' } });
});
