// Makes the V8 code cache of one bin for the Node running it (started in the background by the bin's loader,
// scripts/loader/loader-body.cjs, when it found none): runs the bin's representative calls, one after another in this
// one process, against a temporary store, then writes the cache of everything V8 compiled. A path left out would be
// compiled from source at every call of it (~4-6 M instructions); each path put in costs every call a little to
// deserialize. Usage: node make-cache.cjs <bin> <cache file> [<marker to remove>] [<runs.json>]: the runs default to
// the bin's own (RUNS below); tests give theirs as [{args, input}], each input the text of the run's stdin. Shipped
// beside the bins.
'use strict';
const fs = require('node:fs');
const { createRequire } = require('node:module');
const { tmpdir } = require('node:os');
const { basename, dirname, join } = require('node:path');
const { Script } = require('node:vm');

const [bin, out, marker, runsFile] = process.argv.slice(2);
const name = basename(bin, '.cjs');
const work = fs.mkdtempSync(join(tmpdir(), 'agent-session-cache-'));

// A project's own store (`<project>/.claude/session`), the project a git clone: every call names its project from the
// clone's config, and the sessions (their files name no project) are that project's, as in most projects.
const store = join(work, '.claude', 'session');
fs.mkdirSync(join(work, '.git'), { recursive: true });
fs.writeFileSync(
  join(work, '.git', 'config'),
  '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = git@github.com:cache/project.git\n' +
    '\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
);
const at = new Date().toISOString();
/** A session parked in approval, linked to a Claude agent when `claude` is given. */
function parked(id, agent, claude) {
  fs.mkdirSync(join(store, id), { recursive: true });
  const state = {
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
  fs.writeFileSync(join(store, id, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
  return id;
}
const claude = (event, fields) =>
  JSON.stringify({
    hook_event_name: event,
    session_id: 'cache',
    transcript_path: join(work, 't'),
    cwd: work,
    ...fields,
  });
const seedId = parked('agent-20260101-000000-0000cafe', 'cache-agent');
parked('agent-20260101-000000-0000beef', 'cache-claude');
const stopped = parked('agent-20260101-000000-0000f00d', 'cache-stopper', 'a00000000000cafe1');
/** Each bin's representative calls: both protocols, the events Claude Code sends most. */
const RUNS = {
  'pre-delegate': [
    { args: [], input: JSON.stringify({ agent_name: 'cache-agent' }) },
    { args: [], input: claude('PreToolUse', { tool_name: 'Agent', tool_input: { subagent_type: 'cache-claude' } }) },
    { args: [], input: claude('SubagentStart', { agent_id: 'a00000000000cafe2', agent_type: 'cache-claude' }) },
  ],
  'subagent-stop': [
    { args: [], input: JSON.stringify({ task_info: { agent_id: seedId }, exit_code: 0 }) },
    {
      args: [],
      input: claude('SubagentStop', {
        agent_id: 'a00000000000cafe1',
        agent_type: 'cache-stopper',
        stop_hook_active: false,
        last_assistant_message: 'Plan ready. Waiting for your approval.',
      }),
    },
  ],
  'agent-session': [{ args: ['should-resume', stopped], input: '' }],
};
const runs = (runsFile ? JSON.parse(fs.readFileSync(runsFile, 'utf8')) : RUNS[name] || []).map((run, i) => {
  const input = join(work, `input-${i}`);
  fs.writeFileSync(input, run.input);
  return { args: run.args, input };
});
// The calls run on the temporary store only, whatever the caller's environment named.
process.env.AGENT_SESSION_DIR = store;
process.env.AGENT_SESSION_LOG_DIR = join(work, 'logs');
process.chdir(work);

const source = fs.readFileSync(join(dirname(bin), `${name}.bundle`), 'latin1');
const script = new Script(source, { filename: bin });
let next = 0;
/** Starts the next run: its stdin on fd 0 (the lowest free descriptor once 0 is closed), its arguments, a fresh module. */
function start() {
  const { args, input } = runs[next++];
  fs.closeSync(0);
  if (fs.openSync(input, 'r') !== 0) throw new Error('Expected the run input to open as fd 0');
  process.argv = [process.argv[0], bin, ...args];
  const module_ = { exports: {}, filename: bin, id: bin };
  script.runInThisContext()(module_.exports, createRequire(bin), module_, bin, dirname(bin));
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
if (runs.length > 0) start();

function writeCache() {
  if (runs.length === 0 || next < runs.length) {
    process.stderr.write(`Expected ${runs.length} runs before writing the code cache, got ${next}\n`);
    process.exitCode = 1;
    return;
  }
  // Written whole under another name, then renamed: a reader sees the old cache, none, or this one.
  const temp = `${out}.${process.pid}.tmp`;
  fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
  fs.renameSync(temp, out);
  // The caches of older bundles of this bin, for this same Node, will never be read again.
  const prefix = `${name}-`;
  const suffix = out.slice(out.indexOf('-', out.lastIndexOf(prefix) + prefix.length));
  for (const file of fs.readdirSync(dirname(out))) {
    if (file.startsWith(prefix) && file.endsWith(suffix) && join(dirname(out), file) !== out)
      fs.rmSync(join(dirname(out), file), { force: true });
  }
}
