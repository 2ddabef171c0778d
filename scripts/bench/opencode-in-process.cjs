// agent-session's opencode plugin (`opencodePlugin`, dist/index.cjs) timed per hook, on the file store:
// `node scripts/bench/opencode-in-process.cjs <runs> <warm-up>` prints one JSON object (milliseconds per hook: each
// hook's samples, and all of them pooled). scripts/bench.mjs runs it and reports the medians beside the Agent SDK's.
//
// One cycle is what one delegation to a parked agent costs opencode: `chat.message` of the main agent (the parked
// list added), `tool.execute.before` of `task` (the parked session relinked to the call, its child session checked
// with the client and continued by `task_id`, the context put before the prompt: the attach, flushed), the event of
// the task's part `running` (the child already known: nothing written), one of the many events that are not ours
// (`message.part.delta`), `tool.execute.after` of `task` (the sub-agent stops in approval: kept parked). No opencode is
// needed: the hooks are called as opencode 1.18.33 calls them (tests/fixtures/opencode/), the client by a stand-in
// that knows the child session. In opencode (Bun) each hook's own work is the same; opencode's own awaits come on top.
const { resolve } = require('node:path');
const { inProcessBench } = require('./in-process.cjs');

const library = require(resolve(__dirname, '..', '..', 'dist', 'index.cjs'));
const AGENT = 'bench-opencode-agent';
const MAIN = 'ses_benchmain000000000000001';
const CHILD = 'ses_benchchild00000000000001';

inProcessBench('agent-session-bench-opencode-', async ({ dir, env, timed, cycles }) => {
  const client = { session: { get: async ({ path }) => ({ data: path.id === CHILD ? { id: CHILD } : undefined }) } };
  const hooks = await library.opencodePlugin({ directory: dir, worktree: dir, client }, { env });
  const taskArgs = () => ({ description: 'apply', prompt: 'Apply the plan', subagent_type: AGENT });
  const part = (callID) => ({
    event: {
      type: 'message.part.updated',
      properties: {
        part: {
          type: 'tool',
          tool: 'task',
          callID,
          state: { status: 'running', metadata: { sessionId: CHILD, parentSessionId: MAIN } },
        },
      },
    },
  });
  const after = (callID) =>
    hooks['tool.execute.after'](
      { tool: 'task', sessionID: MAIN, callID, args: taskArgs() },
      {
        output: `<task id="${CHILD}" state="completed">\n<task_result>\nWaiting for approval.\n</task_result>\n</task>`,
        metadata: { sessionId: CHILD, parentSessionId: MAIN },
      },
    );
  // The parked session, made as the plugin makes one: a first task starts, its child runs, it records approval
  // (the CLI's update, here through the library), it stops.
  const first = { args: taskArgs() };
  await hooks['tool.execute.before']({ tool: 'task', sessionID: MAIN, callID: 'call_setup' }, first);
  const made = /recorded in session (agent-[0-9]{8}-[0-9]{6}-[0-9a-f]{8})/.exec(first.args.prompt);
  if (made === null) throw new Error(`Expected the task to make a session, got ${first.args.prompt}`);
  await hooks.event(part('call_setup'));
  const sessions = await library.openStore({ cwd: dir, env });
  await sessions.update(made[1], { phase: 'approval' });
  await sessions.close();
  await after('call_setup');
  await cycles(async (cycle, keep) => {
    const callID = `call_bench_${cycle}`;
    const prompt = { parts: [{ id: `prt_${cycle}`, type: 'text', text: 'Go on with the plan' }] };
    await timed('chat.message', () => hooks['chat.message']({ sessionID: MAIN }, prompt), keep);
    if (prompt.parts.length !== 2 || !prompt.parts[1].text.includes(made[1]))
      throw new Error(`Expected chat.message to list ${made[1]}, got ${JSON.stringify(prompt.parts)}`);
    const task = { args: taskArgs() };
    await timed(
      'tool.execute.before (task)',
      () => hooks['tool.execute.before']({ tool: 'task', sessionID: MAIN, callID }, task),
      keep,
    );
    if (task.args.task_id !== CHILD || !task.args.prompt.includes(`resumes session ${made[1]}`))
      throw new Error(`Expected the task to resume ${made[1]} in ${CHILD}, got ${JSON.stringify(task.args)}`);
    await timed('event (task part running)', () => hooks.event(part(callID)), keep);
    await timed(
      'event (not ours)',
      () =>
        hooks.event({
          event: { type: 'message.part.delta', properties: { sessionID: CHILD, delta: 'Waiting' } },
        }),
      keep,
    );
    await timed('tool.execute.after (task)', () => after(callID), keep);
  });
});
