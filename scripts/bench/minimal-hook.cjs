'use strict';
// The bench's reference (issue 14), not shipped: the I/O of `pre-delegate` by id approving a resume, by hand, with
// no dependency and none of the checks (a flat read of stdin, no locks recovered, no validation). Each hook row of
// `npm run bench` is also read as a ratio to this. Input: {agent_name, agent_id}; AGENT_SESSION_DIR, _LOG_DIR.
const fs = require('node:fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const file = `${process.env.AGENT_SESSION_DIR}/${input.agent_id}/state.json`;
const state = JSON.parse(fs.readFileSync(file, 'utf8'));
const now = new Date();
const idle = now.getTime() - Date.parse(state.last_updated);
const ok =
  ['investigating', 'planning', 'approval'].includes(state.phase) &&
  state.resume_ready === true &&
  state.agent_name === input.agent_name &&
  idle >= -60_000 &&
  idle <= 1_800_000 &&
  state.error_count < 3;
const answer = { should_resume: ok, reason: ok ? 'session_resumable' : 'not_resumable', agent_id: input.agent_id };
if (ok) {
  const at = now.toISOString();
  const entry = { from_phase: state.phase, to_phase: state.phase, timestamp: at, event: 'resume' };
  const next = { ...state, last_updated: at, history: [...state.history, entry].slice(-200) };
  fs.closeSync(fs.openSync(`${file}.lock`, 'wx', 0o600));
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  fs.writeSync(fd, `${JSON.stringify(next, null, 2)}\n`);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  fs.unlinkSync(`${file}.lock`);
  const { phase: previous_phase, created_at, last_updated, history, metadata } = state;
  answer.resume_metadata = { previous_phase, created_at, last_updated, history, metadata };
}
fs.appendFileSync(
  `${process.env.AGENT_SESSION_LOG_DIR}/minimal.log`,
  `${now.toISOString()} ${JSON.stringify(answer.reason)}\n`,
);
fs.writeSync(1, `${JSON.stringify(answer)}\n`);
