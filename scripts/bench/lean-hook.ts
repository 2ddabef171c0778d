// The bench's third reference (issue 24), not shipped: the least a real `pre-delegate` by id can be. The file-system
// work of io-floor-hook.cjs, call for call, plus only the checks no hook of ours may skip, taken from src/: the stdin
// reader, the input parser, the session's schema (generated parser), the configuration, the resume verdict and the
// history step. No service, no store, no project naming, no log levels, no lock recovery. scripts/bench.mjs bundles it
// with the bins' own loader and per-user V8 code cache (named pre-delegate, so make-cache.cjs runs pre-delegate's
// calls), and runs it beside the minimal hook in the start-up group and on each Node line: what the hook rows could
// reach with every module above this one gone, from which their target is counted (the lean hook + 0.10× on Node 22
// and 24: docs/performance.md). Input: {agent_name, agent_id}; AGENT_SESSION_DIR, AGENT_SESSION_LOG_DIR.
import * as fs from 'node:fs';
import { dirname } from 'node:path';
import { limitsOf, resolveConfig } from '../../src/core/config';
import { capHistory, withResume } from '../../src/core/history';
import { resumeVerdict } from '../../src/core/phases';
import { parseState } from '../../src/core/state';
import { parsePreDelegateInput } from '../../src/generated/seed-parsers';
import { fdBytes } from '../../src/hooks/process-io';
import { readJsonSync } from '../../src/hooks/stdin';
import { joinPath as join } from '../../src/platform/paths';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_APPEND } = fs.constants;
const CREATE = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
const READ = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const buffer = Buffer.allocUnsafe(64 * 1024);
const suffix = (): string => `${process.pid}.${Math.random().toString(16).slice(2, 10).padEnd(8, '0')}`;
// readStrict, lock and unlock are io-floor-hook.cjs's, copied rather than shared: that reference stays one file with no
// dependency, which Node runs as it loads, and the two must do the same calls.

function readStrict(file: string): unknown {
  const fd = fs.openSync(file, READ);
  try {
    const size = fs.fstatSync(fd).size;
    const bytes = Buffer.allocUnsafe(size);
    fs.readSync(fd, bytes, 0, size, 0);
    return JSON.parse(bytes.toString('utf8'));
  } finally {
    fs.closeSync(fd);
  }
}

let startTime: string | undefined;
function lock(file: string): string {
  if (startTime === undefined) {
    const stat = fs.readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  }
  const token = `${process.pid} ${startTime} ${Date.now()} ${suffix()}`;
  const draft = `${file}.${suffix()}.tmp`;
  const fd = fs.openSync(draft, CREATE, 0o600);
  fs.writeSync(fd, token);
  fs.closeSync(fd);
  fs.linkSync(draft, file);
  fs.unlinkSync(draft);
  return token;
}

function unlock(file: string, token: string): void {
  const fd = fs.openSync(file, READ);
  let content: string;
  try {
    fs.fstatSync(fd);
    content = buffer.toString('utf8', 0, fs.readSync(fd, buffer, 0, buffer.length, null));
  } finally {
    fs.closeSync(fd);
  }
  if (content === token) fs.unlinkSync(file);
}

function writeNew(file: string, text: string, flush: boolean): void {
  const fd = fs.openSync(file, CREATE, 0o600);
  fs.writeSync(fd, text);
  if (flush) fs.fsyncSync(fd);
  fs.closeSync(fd);
}

function main(): void {
  // A regular file or a socket, as the bench (and make-cache.cjs) give it.
  const input = readJsonSync(fdBytes(0));
  const request = input.kind === 'json' ? parsePreDelegateInput(input.value) : undefined;
  const id = request?.agent_id;
  if (request === undefined || typeof id !== 'string') return;
  const root = process.env.AGENT_SESSION_DIR ?? '';
  const configPath = join(dirname(root), 'agent-session.json');
  let raw: unknown;
  let found = true;
  try {
    raw = JSON.parse(fs.readFileSync(configPath, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    found = false;
  }
  const config = resolveConfig({ found, raw, path: configPath }, process.env).values;
  const limits = limitsOf(config);
  const folder = join(root, id);
  const stateFile = join(folder, 'state.json');

  fs.lstatSync(folder);
  parseState(readStrict(stateFile));
  fs.lstatSync(root);
  fs.lstatSync(folder);
  fs.lstatSync(stateFile);
  const sessionToken = lock(`${stateFile}.lock`);
  fs.lstatSync(folder);
  const state = parseState(readStrict(stateFile));
  const now = new Date();
  const reason = resumeVerdict(state, now, limits);
  const ok = reason === 'session_resumable' && state.agent_name === request.agent_name;
  let answer: object = { should_resume: false, reason, agent_id: state.agent_id };
  if (ok) {
    const next = capHistory(withResume(state, now), config.history_cap);
    const pointers = join(root, '.agents');
    const pointer = join(pointers, `${Buffer.from(state.agent_name, 'utf8').toString('hex')}.json`);
    // make-cache.cjs's store has no pointers: the step is skipped there, never in the bench's stores.
    const pointerToken = fs.lstatSync(pointers, { throwIfNoEntry: false }) ? lock(`${pointer}.lock`) : null;
    if (pointerToken !== null) {
      readStrict(pointer);
      fs.unlinkSync(pointer);
    }
    const temp = join(folder, `.state.json.${suffix()}.tmp`);
    writeNew(temp, `${JSON.stringify(next, null, 2)}\n`, true);
    fs.renameSync(temp, stateFile);
    const dir = fs.openSync(folder, O_RDONLY);
    fs.fsyncSync(dir);
    fs.closeSync(dir);
    if (pointerToken !== null) {
      const pointerTemp = `${pointer}.${suffix()}.tmp`;
      const entry = { agent_name: state.agent_name, agent_id: state.agent_id, last_updated: next.last_updated };
      writeNew(pointerTemp, JSON.stringify(entry), false);
      fs.renameSync(pointerTemp, pointer);
      unlock(`${pointer}.lock`, pointerToken);
    }
    const { phase: previous_phase, created_at, last_updated, history, metadata } = state;
    answer = {
      should_resume: true,
      reason,
      agent_id: state.agent_id,
      resume_metadata: { previous_phase, created_at, last_updated, history, metadata },
    };
  }
  unlock(`${stateFile}.lock`, sessionToken);
  fs.writeSync(1, `${JSON.stringify(answer)}\n`);
  const logs = process.env.AGENT_SESSION_LOG_DIR ?? join(dirname(root), 'logs');
  fs.mkdirSync(logs, { recursive: true, mode: 0o700 });
  const log = fs.openSync(join(logs, 'lean.log'), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK, 0o600);
  fs.fstatSync(log);
  fs.writeSync(log, `${now.toISOString()} lean agent=${JSON.stringify(state.agent_name)} should_resume=${ok}\n`);
  fs.closeSync(log);
}

try {
  main();
} catch (error) {
  // make-cache.cjs runs every pre-delegate call in one process: a call this reference does not serve must not end it.
  process.stderr.write(`lean hook: ${error instanceof Error ? error.message : String(error)}\n`);
}
