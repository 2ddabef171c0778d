// The events of a new Claude Code agent read the same number of sessions in a store of 10 sessions and in one of
// 2,000: the built hooks run on two generated stores (tests/support/generate-sessions.ts, written through agent-session
// as `npm run generate-store` writes them) and the state.json files each call opens are counted, with strace when this
// machine can trace, else with a preload that counts the opens made through node:fs. Counts, not times.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Sessions } from '../../src/service/sessions';
import { FileStore } from '../../src/store/file-store';
import { generateSessions } from '../support/generate-sessions';
import { BIN, tempDir } from '../helpers';

const base = tempDir();
const SIZES = [10, 2000] as const;

/** strace can follow a child here (installed, and ptrace allowed). */
const STRACE = spawnSync('strace', ['-f', '-e', 'trace=openat', '-o', '/dev/null', 'true']).status === 0;

/** A preload that counts the state.json files opened through node:fs and writes the count to $COUNT_FILE at exit. */
function writeCounter(): string {
  const file = join(base, 'count-opens.cjs');
  writeFileSync(
    file,
    "const fs = require('node:fs');\nconst path = require('node:path');\nlet opens = 0;\n" +
      "const counted = (p) => typeof p === 'string' && path.basename(p) === 'state.json';\n" +
      'for (const name of ["openSync", "readFileSync"]) {\n' +
      '  const real = fs[name];\n' +
      '  fs[name] = function (p, ...rest) { if (counted(p)) opens++; return real.call(this, p, ...rest); };\n' +
      '}\n' +
      "process.on('exit', () => fs.writeFileSync(process.env.COUNT_FILE, String(opens)));\n",
  );
  return file;
}
const counter = STRACE ? '' : writeCounter();

interface Store {
  readonly project: string;
  readonly root: string;
}

/** A project whose store holds `count` generated sessions, a parked session of two types and a finished one. */
async function project(count: number): Promise<Store> {
  const dir = join(base, `p${count}`);
  const root = join(dir, '.claude', 'session');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  const store = new FileStore(root);
  for (const state of generateSessions({ count, now: new Date() })) await store.create(state);
  const sessions = new Sessions({ store });
  for (const type of ['parked-start', 'parked-stop']) {
    const parked = await sessions.create({ agent_name: type, purpose: 'p' });
    await sessions.update(parked.agent_id, { phase: 'approval' });
  }
  const done = await sessions.create({ agent_name: 'finished', purpose: 'p' });
  await sessions.finalize(done.agent_id, 'completed');
  return { project: dir, root };
}

/** Runs a hook bin on one Claude Code payload in `store`'s project; its log line and how many state.json it opened. */
function hook(store: Store, bin: string, payload: Record<string, unknown>): { opens: number; log: string } {
  const input = JSON.stringify({
    session_id: 's',
    transcript_path: join(base, 't.jsonl'),
    cwd: store.project,
    ...payload,
  });
  const out = join(base, 'opens');
  rmSync(out, { force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: '',
    CLAUDE_PROJECT_DIR: store.project,
    AGENT_SESSION_LOG_DIR: join(store.project, 'logs'),
    COUNT_FILE: out,
  };
  delete env.AGENT_SESSION_DIR;
  delete env.AGENT_SESSION_DATABASE_URL;
  const args = STRACE
    ? ['-f', '-e', 'trace=openat,open', '-o', out, process.execPath, bin]
    : ['--require', counter, bin];
  const result = spawnSync(STRACE ? 'strace' : process.execPath, args, {
    input,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect({ status: result.status, stderr: STRACE ? '' : result.stderr }).toEqual({ status: 0, stderr: '' });
  const text = readFileSync(out, 'utf8');
  // Only this store's files: strace follows the children too, and a first call of a Node starts the code-cache maker
  // (scripts/loader/), whose representative calls open the sessions of a temporary store.
  const opens = STRACE
    ? text.split('\n').filter((line) => line.includes(`"${store.root}/`) && /\/state\.json"/.test(line)).length
    : Number(text);
  const logName = bin === BIN.preDelegate ? 'pre_delegate.log' : 'subagent_stop.log';
  const log =
    readFileSync(join(store.project, 'logs', logName), 'utf8')
      .trimEnd()
      .split('\n')
      .at(-1) ?? '';
  return { opens, log };
}

const start = (agentId: string, agentType: string) => ({
  hook_event_name: 'SubagentStart',
  agent_id: agentId,
  agent_type: agentType,
});
const stop = (agentId: string, agentType: string) => ({
  hook_event_name: 'SubagentStop',
  agent_id: agentId,
  agent_type: agentType,
  stop_hook_active: false,
  last_assistant_message: 'Plan ready.',
});
const delegation = (type: string) => ({
  tool_name: 'Agent',
  tool_input: { subagent_type: type, prompt: 'p', description: 'd' },
});

/** Each event on its own agent type, so that none changes what another finds. */
const EVENTS: readonly (readonly [string, string, Record<string, unknown>, RegExp])[] = [
  [
    'PreToolUse of a brand-new type',
    BIN.preDelegate,
    { hook_event_name: 'PreToolUse', ...delegation('new-a') },
    /nothing_to_resume/,
  ],
  ['SubagentStart, brand-new type', BIN.preDelegate, start('a000000000000000a', 'new-b'), /created/],
  [
    'SubagentStart, a type with a parked session',
    BIN.preDelegate,
    start('a000000000000000b', 'parked-start'),
    /relinked/,
  ],
  ['SubagentStart, a type with none parked', BIN.preDelegate, start('a000000000000000c', 'finished'), /created/],
  ['SubagentStop before its start, brand-new type', BIN.subagentStop, stop('a000000000000000d', 'new-c'), /created/],
  [
    'SubagentStop before its start, parked type',
    BIN.subagentStop,
    stop('a000000000000000e', 'parked-stop'),
    /relinked/,
  ],
  [
    'PostToolUse async_launched, brand-new type',
    BIN.subagentStop,
    {
      hook_event_name: 'PostToolUse',
      ...delegation('new-d'),
      tool_response: { status: 'async_launched', agentId: 'a000000000000000f' },
    },
    /created/,
  ],
];

it(`the hooks open as many state.json for a new Claude agent in ${SIZES[0]} sessions as in ${SIZES[1]} (${STRACE ? 'strace' : 'preload'})`, async () => {
  const stores = [await project(SIZES[0]), await project(SIZES[1])];
  const rows: string[] = [];
  for (const [label, bin, payload, logged] of EVENTS) {
    const [small, large] = stores.map((store) => hook(store, bin, payload));
    expect(small!.log).toMatch(logged);
    expect(large!.log).toMatch(logged);
    rows.push(`${label}: ${small!.opens} / ${large!.opens}`);
    expect({ label, opens: large!.opens }).toEqual({ label, opens: small!.opens });
    // A handful: the parked session read to decide and again under its lock, and the stop's own read.
    expect(small!.opens).toBeLessThanOrEqual(3);
  }
  process.stdout.write(`[e2e] state.json opens, ${SIZES.join(' / ')} sessions:\n  ${rows.join('\n  ')}\n`);
}, 180_000);
