// The bins' loader and the V8 code caches it reads (see build.mjs). Plain JS: it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The bundle is compiled as a CommonJS module body, exactly as Node would wrap it. */
export const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {';
export const WRAPPER_TAIL = '\n})';

/**
 * A cache belongs to one exact source: V8 itself only compares the source length, so the name carries a hash
 * of the source and a rebuilt bundle can never run with the bytecode of an older one.
 */
export function cacheFileName(name, source) {
  return `${name}.${createHash('sha256').update(source).digest('hex').slice(0, 16)}.cache`;
}

/** The file beside each bin that holds its bundle: `<name>.bundle` (no `.js`: it is not a program to run). */
export function bundleFileName(name) {
  return `${name}.bundle`;
}

/**
 * The bin: a loader that reads its bundle from `<name>.bundle` beside it and runs it, with the code cache when V8
 * accepts it. The bundle is a side file, not a string inside the loader: Node would decode and V8 scan a 150-440 KB
 * string literal on every start (+3.5 M instructions per hook call, +10.7 M per CLI call, callgrind), where reading
 * the ASCII bundle as latin1 is a copy. `hook`: a missing bundle (a bin copied out of dist/ alone) is one line on
 * stderr and exit 0 with nothing on stdout (a hook never fails its host); the CLI exits 5 (E_IO).
 */
export function loaderSource(name, cacheFile, { hook }) {
  return `#!/usr/bin/env node
'use strict';
const bundleFile = ${JSON.stringify(bundleFileName(name))};
const cacheFile = ${JSON.stringify(cacheFile)};
const missingExitCode = ${hook ? 0 : 5};
${LOADER_BODY}`;
}

// Runs in every bin. The cache only saves compile time, so any failure to read it means "compile instead";
// V8 checks its version and flags and rejects (cachedDataRejected) a cache it cannot use.
const LOADER_BODY = `const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');
let source;
try {
  // latin1: the bundle is ASCII (esbuild's charset 'ascii'), so this is its text without a UTF-8 decode.
  source = readFileSync(join(__dirname, bundleFile), 'latin1');
} catch (error) {
  process.stderr.write('agent-session: Expected the bundle ' + join(__dirname, bundleFile) + ' beside this bin (reinstall agent-session), got ' + (error.code || error.message) + '\\n');
  process.exitCode = missingExitCode;
}
if (source !== undefined) {
  let cachedData;
  try {
    cachedData = readFileSync(join(__dirname, cacheFile));
  } catch (error) {
    // The cache is an optional accelerator: absent (ENOENT) or unreadable, the bundle is compiled as usual.
    if (error.code !== 'ENOENT' && process.env.AGENT_SESSION_DEBUG === '1') process.stderr.write('agent-session: code cache not read: ' + error.message + '\\n');
  }
  const script = new Script(source, { filename: __filename, cachedData });
  if (process.env.AGENT_SESSION_DEBUG === '1' && cachedData !== undefined && script.cachedDataRejected) process.stderr.write('agent-session: code cache rejected; compiled instead\\n');
  script.runInThisContext()(exports, require, module, __filename, __dirname);
}
`;

/**
 * Writes dist/<name>.<hash>.cache: runs the bin on its representative calls (RUNS below), one after another in one
 * process, in a temporary store, then serializes what V8 compiled (functions that did not run are compiled lazily,
 * as without a cache). Each hook's calls cover both protocols: a path left out would be compiled from source at every
 * call of it (~4-6 M instructions), while each path put in costs every call a little more to deserialize.
 */
export function makeCodeCache(name) {
  const bin = resolve('dist', `${name}.cjs`);
  const dir = mkdtempSync(join(tmpdir(), 'agent-session-cache-'));
  try {
    // A project's own store (`<project>/.claude/session`), the project a git clone: every call names its project from
    // the clone's config, and the sessions (their files name no project) are that project's, as in most projects.
    const store = join(dir, '.claude', 'session');
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(
      join(dir, '.git', 'config'),
      '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = git@github.com:cache/project.git\n' +
        '\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    );
    const at = new Date().toISOString();
    /** A session parked in approval, linked to a Claude agent when `claude` is given. */
    const parked = (id, agent, claude) => {
      mkdirSync(join(store, id), { recursive: true });
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
      writeFileSync(join(store, id, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
      return id;
    };
    const claude = (event, fields) =>
      JSON.stringify({
        hook_event_name: event,
        session_id: 'cache',
        transcript_path: join(dir, 't'),
        cwd: dir,
        ...fields,
      });
    const seedId = parked('agent-20260101-000000-0000cafe', 'cache-agent');
    parked('agent-20260101-000000-0000beef', 'cache-claude');
    parked('agent-20260101-000000-0000f00d', 'cache-stopper', 'a00000000000cafe1');
    const RUNS = {
      'pre-delegate': [
        { args: [], input: JSON.stringify({ agent_name: 'cache-agent' }) },
        {
          args: [],
          input: claude('PreToolUse', {
            tool_name: 'Agent',
            tool_input: { subagent_type: 'cache-claude', prompt: 'p' },
          }),
        },
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
      'agent-session': [{ args: ['should-resume', seedId], input: '' }],
    };
    const runs = RUNS[name].map((run, i) => {
      const input = join(dir, `input-${i}`);
      writeFileSync(input, run.input);
      return { args: run.args, input };
    });
    writeFileSync(join(dir, 'runs.json'), JSON.stringify(runs));
    // V8 rejects a cache made under other V8 flags; hooks usually run without NODE_OPTIONS, so the cache is made so.
    const env = {
      ...process.env,
      AGENT_SESSION_DIR: store,
      AGENT_SESSION_LOG_DIR: join(dir, 'logs'),
      NODE_EXTRA_CA_CERTS: '',
    };
    delete env.NODE_OPTIONS;
    const result = spawnSync(
      process.execPath,
      [new URL('./make-code-cache.cjs', import.meta.url).pathname, bin, join(dir, 'runs.json')],
      { env, encoding: 'utf8' },
    );
    if (result.status !== 0 && !(name === 'agent-session' && result.status === 1)) {
      throw new Error(`code cache for ${name} failed (exit ${result.status}): ${result.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
