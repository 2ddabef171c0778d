'use strict';
// The bench's second reference (issue 14), not shipped: the file-system work `pre-delegate` does by id approving a
// resume, call for call as strace shows it, written by hand with no dependency and none of the decisions (no
// validation, no rules: every session is approved). Where the minimal hook (minimal-hook.cjs) is the least a hook
// can do, this is the least our guarantees need: the session lock and the agent pointer's lock (each published by
// link() and owned by pid and start time), strict no-follow reads, the pointer taken down and set again, the state
// written to a temp file, flushed, renamed and its folder flushed, the locks released only when still ours, the log
// line in a private folder. `pre-delegate`'s row against this one is the cost of its code: loading, checking and
// deciding. Input: {agent_name, agent_id}; AGENT_SESSION_DIR, AGENT_SESSION_LOG_DIR.
const fs = require('node:fs');
const { isUtf8 } = require('node:buffer');
const { join, dirname } = require('node:path');
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_APPEND } = fs.constants;
const CREATE = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
const READ = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const buffer = Buffer.allocUnsafe(64 * 1024);
const suffix = () => `${process.pid}.${Math.random().toString(16).slice(2, 10).padEnd(8, '0')}`;

fs.fstatSync(0);
const input = JSON.parse(buffer.toString('utf8', 0, fs.readSync(0, buffer, 0, buffer.length, null)));
const root = process.env.AGENT_SESSION_DIR;
try {
  fs.readFileSync(join(dirname(root), 'agent-session.json'), 'utf8');
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
const folder = join(root, input.agent_id);
const stateFile = join(folder, 'state.json');

function readStrict(file) {
  const fd = fs.openSync(file, READ);
  try {
    const size = fs.fstatSync(fd).size;
    const bytes = Buffer.allocUnsafe(size);
    fs.readSync(fd, bytes, 0, size, 0);
    if (!isUtf8(bytes)) throw new Error(`${file} is not UTF-8`);
    return JSON.parse(bytes.toString('utf8'));
  } finally {
    fs.closeSync(fd);
  }
}
let startTime;
function lock(file) {
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
function unlock(file, token) {
  const fd = fs.openSync(file, READ);
  let content;
  try {
    fs.fstatSync(fd);
    content = buffer.toString('utf8', 0, fs.readSync(fd, buffer, 0, buffer.length, null));
  } finally {
    fs.closeSync(fd);
  }
  if (content === token) fs.unlinkSync(file);
}
function ensureFolder(dir) {
  if (!fs.lstatSync(dir, { throwIfNoEntry: false })) fs.mkdirSync(dir, { mode: 0o700 });
}

fs.lstatSync(folder);
const state = readStrict(stateFile);
fs.lstatSync(root);
fs.lstatSync(folder);
fs.lstatSync(stateFile);
const sessionToken = lock(`${stateFile}.lock`);
fs.lstatSync(folder);
readStrict(stateFile);
const at = new Date().toISOString();
const entry = { from_phase: state.phase, to_phase: state.phase, timestamp: at, event: 'resume' };
const next = { ...state, last_updated: at, history: [...state.history, entry] };
const pointers = join(root, '.agents');
fs.lstatSync(pointers);
ensureFolder(pointers);
const pointer = join(pointers, `${Buffer.from(state.agent_name, 'utf8').toString('hex')}.json`);
const pointerToken = lock(`${pointer}.lock`);
readStrict(pointer);
fs.unlinkSync(pointer);
const temp = join(folder, `.state.json.${suffix()}.tmp`);
let fd = fs.openSync(temp, CREATE, 0o600);
fs.writeSync(fd, `${JSON.stringify(next, null, 2)}\n`);
fs.fsyncSync(fd);
fs.closeSync(fd);
fs.renameSync(temp, stateFile);
fd = fs.openSync(folder, O_RDONLY);
fs.fsyncSync(fd);
fs.closeSync(fd);
const pointerTemp = `${pointer}.${suffix()}.tmp`;
fd = fs.openSync(pointerTemp, CREATE, 0o600);
fs.writeSync(fd, JSON.stringify({ agent_name: state.agent_name, agent_id: state.agent_id, last_updated: at }));
fs.closeSync(fd);
fs.renameSync(pointerTemp, pointer);
unlock(`${pointer}.lock`, pointerToken);
unlock(`${stateFile}.lock`, sessionToken);
const { phase: previous_phase, created_at, last_updated, history, metadata } = state;
const answer = {
  should_resume: true,
  reason: 'session_resumable',
  agent_id: state.agent_id,
  resume_metadata: { previous_phase, created_at, last_updated, history, metadata },
};
fs.writeSync(1, `${JSON.stringify(answer)}\n`);
const logs = process.env.AGENT_SESSION_LOG_DIR;
fs.lstatSync(dirname(logs));
ensureFolder(logs);
fd = fs.openSync(join(logs, 'io-floor.log'), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK, 0o600);
fs.fstatSync(fd);
fs.writeSync(fd, `${at} io-floor agent=${JSON.stringify(state.agent_name)} should_resume=true\n`);
fs.closeSync(fd);
