// Guarantee (issue 33): an approved permission request runs exactly once. Each round parks a background sub-agent's
// request (through the built bins, its meta file saying `background`), then fires at once, in a random order with
// random small delays: the user's `approve` (in this process, on the same file store: its lock is the same one the
// hooks take), the SubagentStart of the agent that resumes the session, several identical requests of that agent and,
// in half the rounds, a different one. Then one more identical request, alone. Whatever the order: the identical call
// is allowed exactly once in all (never when the different one took the grant), the different one never, every allow
// is a `spent` record of the resumed agent made after the decision, and the state stays valid.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { userDecisionSeal } from '../../src/platform/decision-key';
import { Sessions } from '../../src/service/sessions';
import { FileStore } from '../../src/store/file-store';
import { bashPermissionRequest, headlessSubagents } from '../support/claude-subagents';
import { AT_TERMINAL } from '../support/origin';
import { BIN, childEnv, makeTemp, prng, removeTemp, seedOf } from './helpers';

const ROUNDS = 24;
const BATCH = 4;
const SAME_REQUESTS = 4;
const TYPE = 'terraform-architect';
const SESSION = '11111111-2222-3333-4444-555555555555';
const WRITE = { command: 'touch PERM-FILE', description: 'scripted command' };
const OTHER = { command: 'touch OTHER-FILE', description: 'scripted command' };

interface Project {
  readonly dir: string;
  readonly base: Record<string, string>;
}

function project(root: string, agents: readonly string[]): Project {
  const dir = join(root, 'proj');
  mkdirSync(dir, { recursive: true });
  // A headless run (`claude -p`): what makes its requests ones nobody can answer.
  return { dir, base: headlessSubagents(join(root, 'home'), dir, SESSION, TYPE, agents) };
}

function fire(p: Project, bin: string, payload: Record<string, unknown>, delayMs = 0): Promise<string> {
  return new Promise((done, fail) => {
    setTimeout(() => {
      const child = spawn(process.execPath, [bin], {
        cwd: p.dir,
        env: childEnv(p.dir),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.on('error', fail);
      child.on('close', () => done(stdout));
      child.stdin.end(JSON.stringify({ ...p.base, ...payload }));
    }, delayMs);
  });
}

const ask = (agent: string, input: unknown) => bashPermissionRequest(agent, TYPE, input);
const behaviour = (stdout: string): string =>
  stdout.trim() === ''
    ? 'none'
    : String(
        (JSON.parse(stdout) as { hookSpecificOutput?: { decision?: { behavior?: string } } }).hookSpecificOutput
          ?.decision?.behavior,
      );

async function round(index: number): Promise<string[]> {
  const random = prng(seedOf(`permission-race-${index}`));
  const first = `a${(0x1000000000000000 + index).toString(16)}`;
  const next = `b${(0x1000000000000000 + index).toString(16)}`;
  const root = makeTemp();
  const problems: string[] = [];
  try {
    const p = project(root, [first, next]);
    const store = new FileStore(join(p.dir, 'store'));
    // The user's approval, sealed by the key the hooks judge it with (the same data folder): an unsealed one counts
    // for nothing on a file store (issue 40 item 3).
    const sign = userDecisionSeal(childEnv(p.dir)).sign;
    const sessions = new Sessions({ store, decisionOrigin: () => AT_TERMINAL, sign });
    const started = await fire(p, BIN.preDelegate, {
      hook_event_name: 'SubagentStart',
      agent_id: first,
      agent_type: TYPE,
    });
    const id = /session (agent-[\w-]+)/.exec(started)?.[1];
    if (id === undefined) return [`round ${index}: no session started: ${started.slice(0, 200)}`];
    if (behaviour(await fire(p, BIN.preDelegate, ask(first, WRITE))) !== 'deny')
      problems.push('the first ask was not parked');
    await fire(p, BIN.subagentStop, { hook_event_name: 'SubagentStop', agent_id: first, agent_type: TYPE });
    const withOther = index % 2 === 0;
    const delay = () => Math.floor(random() * 40);
    let approved = false;
    const racing: Promise<readonly [string, string]>[] = [
      new Promise((done) => setTimeout(done, delay())).then(async () => {
        await sessions.approve(id, {}, { allProjects: true });
        approved = true;
        return ['approve', 'ok'] as const;
      }),
      fire(p, BIN.preDelegate, { hook_event_name: 'SubagentStart', agent_id: next, agent_type: TYPE }, delay()).then(
        () => ['start', 'ok'] as const,
      ),
      ...Array.from({ length: SAME_REQUESTS }, () =>
        fire(p, BIN.preDelegate, ask(next, WRITE), delay()).then((out) => ['same', behaviour(out)] as const),
      ),
      ...(withOther
        ? [fire(p, BIN.preDelegate, ask(next, OTHER), delay()).then((out) => ['other', behaviour(out)] as const)]
        : []),
    ];
    const answers = await Promise.all(racing);
    if (!approved) problems.push('approve did not succeed');
    const after = behaviour(await fire(p, BIN.preDelegate, ask(next, WRITE)));
    const allows =
      answers.filter(([what, how]) => what === 'same' && how === 'allow').length + (after === 'allow' ? 1 : 0);
    if (answers.some(([what, how]) => what === 'other' && how === 'allow'))
      problems.push('the different call was allowed');
    const state = await sessions.get(id);
    const spent = (state.permission_requests ?? []).filter((request) => request.status === 'spent');
    if (allows > 1) problems.push(`the identical call was allowed ${allows} times`);
    if (spent.length !== allows) problems.push(`${allows} allows but ${spent.length} spent records`);
    for (const record of spent) {
      if (record.spent_by !== next) problems.push(`spent by ${record.spent_by}, not the resumed agent`);
      if (record.decided_at === undefined || Date.parse(record.spent_at!) < Date.parse(record.decided_at))
        problems.push('spent before it was decided');
    }
    // Without the different call nothing can take the grant: the identical call ran exactly once.
    if (!withOther && allows !== 1)
      problems.push(`without a different call, the identical one was allowed ${allows} times`);
    return problems.map((problem) => `round ${index}: ${problem}`);
  } finally {
    removeTemp(root);
  }
}

it(`an approved request runs exactly once, whatever the order of approve, the resume and the requests (${ROUNDS} rounds)`, async () => {
  const problems: string[] = [];
  for (let start = 0; start < ROUNDS; start += BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(BATCH, ROUNDS - start) }, (_, i) => round(start + i)),
    );
    problems.push(...batch.flat());
  }
  expect(problems).toEqual([]);
});
