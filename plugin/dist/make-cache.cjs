// Makes the V8 code cache of one bin for the Node running it (started in the background by the bin's loader,
// scripts/loader/loader-body.cjs, when it found none): runs the bin's representative calls, one after another in this
// one process, against a temporary store, then writes the cache of everything V8 compiled. A path left out would be
// compiled from source at every call of it (~4-6 M instructions); each path put in costs every call a little to
// deserialize. Usage: node make-cache.cjs <bin> <cache file> [<marker to remove>] [<runs.json>]: the runs default to
// the bin's own (RUNS below: the seed protocol's, then one of each host event the table wires to the bin, then
// RELAY_RUNS for a `-database.v8` cache: the loader asks for one after a call that used a database, so a file store's
// calls never deserialize the PostgreSQL path); tests give theirs as [{args, input}], each input the text of the run's
// stdin. Shipped beside the bins, with the table of events written in by the build (scripts/bundles.mjs).
'use strict';
const fs = require('node:fs');
const { createRequire } = require('node:module');
const { tmpdir } = require('node:os');
const { basename, dirname, join } = require('node:path');
const { Script } = require('node:vm');

// The rows of the table of events (src/core/events.ts: event, bin, hosts), written in here by the build
// (scripts/bundles.mjs makeCacheFile): each row is run on its bin, so a new event is in the cache without a line here.
const EVENTS = [{"event":"PreToolUse","bin":"pre-delegate","hosts":["claude-code","codex","agent-sdk"]},{"event":"PermissionRequest","bin":"pre-delegate","hosts":["claude-code","codex","agent-sdk","opencode"]},{"event":"SubagentStart","bin":"pre-delegate","hosts":["claude-code","codex","agent-sdk","opencode"]},{"event":"SubagentStop","bin":"subagent-stop","hosts":["claude-code","codex","agent-sdk","opencode"]},{"event":"StopFailure","bin":"subagent-stop","hosts":["claude-code","agent-sdk","opencode"]},{"event":"Interrupt","bin":"subagent-stop","hosts":["claude-code"]},{"event":"PostToolUse","bin":"subagent-stop","hosts":["claude-code","agent-sdk"]},{"event":"SessionStart","bin":"pre-delegate","hosts":["claude-code","codex","agent-sdk"]},{"event":"UserPromptSubmit","bin":"pre-delegate","hosts":["claude-code","codex","agent-sdk","opencode"]},{"event":"Stop","bin":"subagent-stop","hosts":["claude-code"]},{"event":"PostModelRequest","bin":"subagent-stop","hosts":["codex"]}];

const at = new Date().toISOString();
/** Session ids and Claude agent ids of the temporary store (fixture below). */
const SEED_ID = 'agent-20260101-000000-0000cafe';
const STOPPED_ID = 'agent-20260101-000000-0000f00d';
const STOPPING_AGENT = 'a00000000000cafe1';

/**
 * One representative call (or more, one per path worth caching) of each event of the table, by its name: the fields
 * of its payload besides `hook_event_name`, `session_id`, `cwd`, from the words that run the CLI on the store. The
 * build fails for a row with none (scripts/bundles.mjs).
 */
const EVENT_SAMPLES = {
  PreToolUse: () => [{ tool_name: 'Agent', tool_input: { subagent_type: 'cache-claude' } }],
  // The linked sub-agent's own recording command: allowed (src/hooks/handlers/permission.ts).
  PermissionRequest: (cli) => [
    {
      tool_name: 'Bash',
      agent_id: STOPPING_AGENT,
      agent_type: 'cache-stopper',
      tool_input: { command: `${cli} update ${STOPPED_ID} --phase executing` },
    },
  ],
  SubagentStart: () => [
    { agent_id: 'a00000000000cafe2', agent_type: 'cache-claude' },
    // A type whose session an approval moved on: its decision's seal checked (src/core/seal.ts, the HMAC of
    // src/platform/hmac-sha256.ts), ~6 M instructions compiled from source at every such call when left out.
    { agent_id: 'a00000000000cafe9', agent_type: 'cache-approved' },
    // A new agent of a type with no parked session: a session created for it (the relink above creates none).
    { agent_id: 'a00000000000cafe4', agent_type: 'cache-new' },
  ],
  SubagentStop: () => [
    {
      agent_id: STOPPING_AGENT,
      agent_type: 'cache-stopper',
      stop_hook_active: false,
      last_assistant_message: 'Plan ready. Waiting for your approval.',
    },
  ],
  StopFailure: () => [
    { agent_id: 'a00000000000cafe6', agent_type: 'cache-failer', error: 'rate_limit', error_details: '429' },
  ],
  // The main turn interrupted (its payload names no agent; the sub-agents cut off are read from its session folder).
  Interrupt: () => [{ source: 'user', reason: 'stop', via: 'terminal' }],
  // A background launch: attached as it is launched.
  PostToolUse: () => [
    {
      tool_name: 'Agent',
      tool_input: { subagent_type: 'cache-launched' },
      tool_response: { agentId: 'a00000000000cafe7', status: 'async_launched' },
    },
  ],
  // The main agent's turn ends with decisions parked in approval: the person is told of them (handlers/told.ts).
  Stop: () => [{ stop_hook_active: false, last_assistant_message: 'Done.' }],
  SessionStart: () => [{ source: 'startup' }],
  UserPromptSubmit: () => [{ prompt: 'Carry on.' }],
  // Codex's: a sub-agent's failed model request, read as its StopFailure.
  PostModelRequest: () => [
    {
      agent_id: 'a00000000000cafe8',
      agent_type: 'cache-codex',
      status: 'failed',
      error: JSON.stringify({ error: { type: 'rate_limit_error', message: 'Rate limit reached' } }),
    },
  ],
};

module.exports = { EVENT_SAMPLES };
if (require.main === module) main();

function main() {
  const [bin, out, marker, runsFile] = process.argv.slice(2);
  const name = basename(bin, '.cjs');
  const work = fs.mkdtempSync(join(tmpdir(), 'agent-session-cache-'));

  // A project's own store (`<project>/.claude/session`), the project a git clone: every call names its project from
  // the clone's config, and the sessions (their files name no project) are that project's, as in most projects.
  const store = join(work, '.claude', 'session');
  fs.mkdirSync(join(work, '.git'), { recursive: true });
  fs.writeFileSync(
    join(work, '.git', 'config'),
    '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = git@github.com:cache/project.git\n' +
      '\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
  );
  /** A session parked in approval, linked to a Claude agent when `claude` is given. */
  function stateOf(id, agent, claude) {
    return {
      schema_version: 1,
      agent_id: id,
      agent_name: agent,
      purpose: 'cache',
      created_at: at,
      last_updated: at,
      phase: 'approval',
      metadata: {},
      resume_ready: true,
      history: [{ from_phase: 'initializing', to_phase: 'approval', timestamp: at }],
      error_count: 0,
      last_error: null,
      ...(claude === undefined ? {} : { claude: { agent_id: claude, agent_type: agent, linked_at: at } }),
    };
  }
  /** The same, written to the temporary store. */
  function parked(id, agent, claude) {
    fs.mkdirSync(join(store, id), { recursive: true });
    fs.writeFileSync(join(store, id, 'state.json'), `${JSON.stringify(stateOf(id, agent, claude), null, 2)}\n`);
    return id;
  }
  /**
   * A session an approval moved to executing, its decision sealed (with a MAC no key makes: the check runs, and says
   * no), and a key in the temporary data folder to check it with.
   */
  function approvedSession(id, agent) {
    const keyFolder = join(work, 'data', 'agent-session');
    fs.mkdirSync(keyFolder, { recursive: true, mode: 0o700 });
    fs.writeFileSync(join(keyFolder, 'key'), `${'0'.repeat(64)}\n`, { mode: 0o600 });
    const state = stateOf(id, agent);
    const decision = {
      decision: 'approved',
      by: 'cache',
      at,
      to_phase: 'executing',
      waiting_since: at,
      origin: { os_user: 'cache', terminal: true, claimed: false },
      mac: 'f'.repeat(64),
    };
    const approved = {
      ...state,
      schema_version: 13,
      phase: 'executing',
      resume_ready: false,
      history: [...state.history, { from_phase: 'approval', to_phase: 'executing', timestamp: at }],
      decisions: [decision],
    };
    fs.mkdirSync(join(store, id), { recursive: true });
    fs.writeFileSync(join(store, id, 'state.json'), `${JSON.stringify(approved, null, 2)}\n`);
  }
  const claude = (event, fields) =>
    JSON.stringify({
      hook_event_name: event,
      session_id: 'cache',
      transcript_path: join(work, 't'),
      cwd: work,
      ...fields,
    });
  const seedId = parked(SEED_ID, 'cache-agent');
  approvedSession('agent-20260101-000000-0000a99e', 'cache-approved');
  parked('agent-20260101-000000-0000beef', 'cache-claude');
  const stopped = parked(STOPPED_ID, 'cache-stopper', STOPPING_AGENT);
  parked('agent-20260101-000000-0000fa11', 'cache-failer', 'a00000000000cafe6');
  // The words the hooks' contexts give the sub-agents for this store (src/hooks/hosts/cli-words.ts), as a shell line.
  const cli = [process.execPath, join(dirname(bin), 'agent-session.cjs'), '--dir', store].map(shellQuote).join(' ');
  /** A run of each row of the table wired to `name`, as the first host the row names (`--host` unless Claude Code). */
  const eventRuns = (name) =>
    EVENTS.filter((row) => row.bin === name).flatMap((row) =>
      EVENT_SAMPLES[row.event](cli).map((fields) => ({
        args: row.hosts.includes('claude-code') ? [] : ['--host', row.hosts[0]],
        input: claude(row.event, fields),
      })),
    );
  /** Each bin's representative calls: the seed protocol's, then every host event the table wires to it. */
  const RUNS = {
    'pre-delegate': [
      { args: [], input: JSON.stringify({ agent_name: 'cache-agent' }) },
      // By id as well (the seed protocol's resume of a known session): its own functions were compiled from source at
      // every such call.
      { args: [], input: JSON.stringify({ agent_name: 'cache-agent', agent_id: seedId }) },
      ...eventRuns('pre-delegate'),
    ],
    'subagent-stop': [
      { args: [], input: JSON.stringify({ task_info: { agent_id: seedId }, exit_code: 0 }) },
      ...eventRuns('subagent-stop'),
    ],
    'agent-session': [{ args: ['should-resume', stopped], input: '' }],
  };
  // The PostgreSQL hooks' calls go through their relay (src/store/relay/): a stand-in here (startRelay, below) answers
  // them from sessions in memory, at the socket a hook computes for this URL, schema and build (BUILD_ID, a constant of
  // the bin's loader), so their path is in the cache too. Last: their environment stays for the runs after them.
  const BUILD_ID = /^const BUILD_ID = (".*");$/m.exec(fs.readFileSync(bin, 'utf8'))?.[1];
  const relayEnv = {
    AGENT_SESSION_DATABASE_URL: 'postgres://cache@127.0.0.1:9/cache',
    AGENT_SESSION_DATABASE_SCHEMA: 'agent_session',
    XDG_RUNTIME_DIR: join(work, 'xdg'),
  };
  const RELAY_RUNS = {
    'pre-delegate': [
      { args: [], input: JSON.stringify({ agent_name: 'cache-agent' }) },
      { args: [], input: JSON.stringify({ agent_name: 'cache-agent', agent_id: seedId }) },
      { args: [], input: claude('SubagentStart', { agent_id: 'a00000000000cafe3', agent_type: 'cache-claude' }) },
      { args: [], input: claude('SubagentStart', { agent_id: 'a00000000000cafe5', agent_type: 'cache-new' }) },
    ],
    'subagent-stop': [{ args: [], input: claude('SubagentStop', EVENT_SAMPLES.SubagentStop()[0]) }],
  };
  const DATABASE_CACHE = /-database\.v8$/;
  const relayRuns = runsFile || BUILD_ID === undefined || !DATABASE_CACHE.test(out) ? [] : RELAY_RUNS[name] || [];
  const runs = [
    ...(runsFile ? JSON.parse(fs.readFileSync(runsFile, 'utf8')) : RUNS[name] || []),
    ...relayRuns.map((run) => ({ ...run, relay: true })),
  ].map((run, i) => {
    const input = join(work, `input-${i}`);
    fs.writeFileSync(input, run.input);
    return { args: run.args, input, relay: run.relay === true };
  });
  // The calls run on the temporary store only, whatever the caller's environment named.
  process.env.AGENT_SESSION_DIR = store;
  process.env.AGENT_SESSION_LOG_DIR = join(work, 'logs');
  process.env.XDG_DATA_HOME = join(work, 'data');
  process.chdir(work);

  const source = fs.readFileSync(join(dirname(bin), `${name}.bundle`), 'latin1');
  const script = new Script(source, { filename: bin });
  let next = 0;
  /** The stand-in relay, when a run needs one. */
  let relay = null;
  /** Starts the next run: its stdin on fd 0 (the lowest free descriptor once 0 is closed), its arguments, a module. */
  function start() {
    const { args, input, relay: viaRelay } = runs[next++];
    if (viaRelay) Object.assign(process.env, relayEnv);
    fs.closeSync(0);
    if (fs.openSync(input, 'r') !== 0) throw new Error('Expected the run input to open as fd 0');
    process.argv = [process.argv[0], bin, ...args];
    const module_ = { exports: {}, filename: bin, id: bin };
    // A relay run is given the temporary folder as its own: a hook that found no relay would start one from the bin's
    // folder (agent-session.cjs beside it), and there is none here.
    script.runInThisContext()(module_.exports, createRequire(bin), module_, bin, viaRelay ? work : dirname(bin));
  }
  // A run is over when the event loop has nothing left to do; then the next one starts. Node emits 'beforeExit' again
  // only when the listener left the loop something to do, and a hook call is synchronous from start to end (only
  // promises, which do not keep the loop alive): without the immediate, the second run was the last one.
  process.on('beforeExit', () => {
    if (next < runs.length) {
      start();
      setImmediate(() => {});
    }
  });
  process.on('exit', () => {
    try {
      writeCache();
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
      if (marker) fs.rmSync(marker, { force: true });
    }
  });
  if (relayRuns.length > 0) {
    relay = startRelay(
      join(relayEnv.XDG_RUNTIME_DIR, 'agent-session'),
      [
        stateOf('agent-20260101-000000-0000c0de', 'cache-agent'),
        stateOf('agent-20260101-000000-0000c1de', 'cache-claude'),
        stateOf('agent-20260101-000000-0000c2de', 'cache-stopper', 'a00000000000cafe1'),
      ],
      relayEnv,
      BUILD_ID,
    );
    relay.server.once('listening', start);
  } else if (runs.length > 0) start();

  function writeCache() {
    if (runs.length === 0 || next < runs.length) {
      process.stderr.write(`Expected ${runs.length} runs before writing the code cache, got ${next}\n`);
      process.exitCode = 1;
      return;
    }
    // A relay run that found no stand-in went to the database (none here) and cached that path instead: the cache is
    // still made (it only saves time), and the maker says so.
    if (relay !== null && relay.connections < relayRuns.length) {
      process.stderr.write(`Expected ${relayRuns.length} calls through the stand-in relay, got ${relay.connections}\n`);
      process.exitCode = 1;
    }
    // Written whole under another name, then renamed: a reader sees the old cache, none, or this one.
    const temp = `${out}.${process.pid}.tmp`;
    fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temp, out);
    // The caches of older bundles of this bin, for this same Node, of either kind, will never be read again.
    const prefix = `${name}-`;
    const own = basename(out).replace(DATABASE_CACHE, '.v8');
    const hashEnd = own.indexOf('-', own.lastIndexOf(prefix) + prefix.length);
    const bundle = own.slice(0, hashEnd + 1);
    const suffix = own.slice(hashEnd);
    for (const file of fs.readdirSync(dirname(out))) {
      const kindless = file.replace(DATABASE_CACHE, '.v8');
      if (kindless.startsWith(prefix) && kindless.endsWith(suffix) && !kindless.startsWith(bundle))
        fs.rmSync(join(dirname(out), file), { force: true });
    }
  }
}

/**
 * The stand-in relay: listens where this build's hooks (BUILD_ID) look for the relay of relayEnv's store, in
 * `folder` (made private, as theirs must be), and answers the relay's protocol (src/store/relay/relay-protocol.ts)
 * from `states`. Unref'd once listening: it never keeps this process alive.
 */
function startRelay(folder, states, relayEnv, BUILD_ID) {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const key = relayKey(
    JSON.stringify([relayEnv.AGENT_SESSION_DATABASE_URL, relayEnv.AGENT_SESSION_DATABASE_SCHEMA, JSON.parse(BUILD_ID)]),
  );
  const sessions = new Map(states.map((state) => [state.agent_id, state]));
  const date = (ms) => ({ $t: 'date', v: ms });
  // The project the calls name (the lookups' first argument): the sessions are that project's, as its own store's are.
  let project = null;
  const own = (state) =>
    state === undefined || state === null
      ? null
      : state.project !== undefined || project === null
        ? state
        : { ...state, project, schema_version: 5 };
  const linkedTo = (claudeId) => [...sessions.values()].find((state) => state.claude?.agent_id === claudeId);
  const answer = (call, args) => {
    switch (call) {
      case 'now':
        return date(Date.now());
      case 'newestOf':
        project = args[0];
        return own([...sessions.values()].find((state) => state.agent_name === args[1]));
      case 'read':
        return own(sessions.get(args[0]));
      case 'readVersioned': {
        const state = own(sessions.get(args[0]));
        return state === null ? null : { version: '1', state, problem: null, writtenAt: date(Date.now()) };
      }
      case 'writeVersioned':
      case 'writeIfUnchanged':
        sessions.set(args[0], args[2]);
        return true;
      case 'create':
        sessions.set(args[0].agent_id, args[0]);
        return undefined;
      case 'attachedTo':
      case 'findByClaudeAgent':
        project = args[0];
        return own(linkedTo(args[1]));
      case 'newestPerAgent':
        project = args[0];
        return [...sessions.values()].map(own);
      default:
        return undefined;
    }
  };
  const made = { server: null, connections: 0 };
  made.server = require('node:net').createServer((connection) => {
    made.connections++;
    connection.unref();
    let buffer = '';
    let greeted = false;
    connection.on('error', () => undefined);
    connection.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (!greeted) {
          greeted = true;
          const { relay, protocol, build } = message;
          connection.write(`${JSON.stringify({ relay, protocol, build, pid: process.pid })}\n`);
          continue;
        }
        const value = answer(message.call, message.args);
        const body =
          value === undefined ? {} : { ok: value, ...(JSON.stringify(value).includes('"$t"') ? { tagged: 1 } : {}) };
        connection.write(`${JSON.stringify({ id: message.id, ...body })}\n`);
      }
    });
  });
  made.server.listen(join(folder, `relay-${key}.sock`), () => made.server.unref());
  return made;
}

/** A word for a POSIX shell, quoted only when it needs to be (src/platform/shell.ts shellQuote). */
function shellQuote(word) {
  return /^[A-Za-z0-9_/.:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The relay socket's key, as src/store/relay/relay-folder.ts computes it (a test checks they agree). */
function relayKey(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
