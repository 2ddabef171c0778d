// The in-process hooks of the Claude Agent SDK (`agentSessionHooks`, dist/index.cjs) timed per event, on the file
// store: `node scripts/bench/sdk-in-process.cjs <runs> <warm-up>` prints one JSON object (milliseconds per event:
// each event's samples, and all of them pooled). scripts/bench.mjs runs it and reports the medians.
//
// One cycle is what one delegation to a parked agent costs the app: UserPromptSubmit (the parked list), PreToolUse
// of the Agent tool (the resume offered), SubagentStart (a new Claude agent relinked to the parked session: the
// attach, flushed), PreToolUse of the recording tool and its handler (metadata recorded), SubagentStop (the agent
// stops in approval: kept parked), PostToolUse (already linked). No SDK is needed: the callbacks are called as the SDK
// calls them, with the payloads it sends (seen with 0.3.332), and the tool through a stand-in of `tool`.
const { join, resolve } = require('node:path');
const { inProcessBench } = require('./in-process.cjs');

const library = require(resolve(__dirname, '..', '..', 'dist', 'index.cjs'));
const AGENT = 'bench-sdk-agent';

inProcessBench('agent-session-bench-sdk-', async ({ base, dir, env, timed, cycles }) => {
  const sdk = { tool: (name, description, shape, handler) => ({ name, handler }), createSdkMcpServer: (o) => o };
  const hooks = await library.agentSessionHooks({ cwd: dir, env, sdk });
  const callback = (event) => hooks.hooks[event][0].hooks[0];
  const record = hooks.mcpServers['agent-session'].tools[0].handler;
  const common = { session_id: 'bench-session', transcript_path: join(base, 't.jsonl'), cwd: dir };
  // The parked session, made as an SDK app makes one (a session names its host: one the CLI or the library made is
  // Claude Code's, which the SDK's hooks never resume): a first sub-agent starts, records approval, stops.
  const setup = { agent_id: 'a_setup', agent_type: AGENT };
  const first = await callback('SubagentStart')(
    { ...common, hook_event_name: 'SubagentStart', ...setup },
    undefined,
    {},
  );
  const made = /recorded in session (agent-[0-9]{8}-[0-9]{6}-[0-9a-f]{8})/.exec(JSON.stringify(first));
  if (made === null) throw new Error(`Expected SubagentStart to make a session, got ${JSON.stringify(first)}`);
  const parked = { agent_id: made[1] };
  const pre = { ...common, hook_event_name: 'PreToolUse', tool_name: hooks.recordTool, ...setup };
  await callback('PreToolUse')(
    { ...pre, tool_input: { phase: 'approval' }, tool_use_id: 'toolu_setup' },
    'toolu_setup',
    {},
  );
  const approval = await record({ phase: 'approval' }, { _meta: { 'claudecode/toolUseId': 'toolu_setup' } });
  if (approval.isError) throw new Error(`Expected the tool to record approval, got ${JSON.stringify(approval)}`);
  await callback('SubagentStop')({ ...common, hook_event_name: 'SubagentStop', ...setup }, undefined, {});
  const agentTool = { subagent_type: AGENT, prompt: 'Apply the plan', description: 'apply' };
  const call = (event, fields, keep) =>
    timed(event, () => callback(event)({ ...common, hook_event_name: event, ...fields }, undefined, {}), keep);
  await cycles(async (cycle, keep) => {
    const agentId = `a${String(cycle).padStart(16, '0')}`;
    const toolUseId = `toolu_bench_${cycle}`;
    await call('UserPromptSubmit', { prompt: 'Go on with the plan' }, keep);
    await call('PreToolUse', { tool_name: 'Agent', tool_input: agentTool, tool_use_id: `toolu_agent_${cycle}` }, keep);
    const started = await call('SubagentStart', { agent_id: agentId, agent_type: AGENT }, keep);
    if (!JSON.stringify(started).includes(parked.agent_id))
      throw new Error(`Expected SubagentStart to resume ${parked.agent_id}, got ${JSON.stringify(started)}`);
    await timed(
      'PreToolUse (recording tool)',
      () =>
        callback('PreToolUse')(
          {
            ...common,
            hook_event_name: 'PreToolUse',
            tool_name: hooks.recordTool,
            tool_input: { metadata: { step: cycle } },
            tool_use_id: toolUseId,
            agent_id: agentId,
            agent_type: AGENT,
          },
          toolUseId,
          {},
        ),
      keep,
    );
    const recorded = await timed(
      'recording tool',
      () => record({ metadata: { step: cycle } }, { _meta: { 'claudecode/toolUseId': toolUseId }, requestId: cycle }),
      keep,
    );
    if (recorded.isError) throw new Error(`Expected the tool to record, got ${JSON.stringify(recorded)}`);
    await call(
      'SubagentStop',
      { agent_id: agentId, agent_type: AGENT, last_assistant_message: 'Waiting for approval.' },
      keep,
    );
    await call(
      'PostToolUse',
      {
        tool_name: 'Agent',
        tool_input: agentTool,
        tool_response: { agentId, status: 'completed' },
        tool_use_id: `toolu_agent_${cycle}`,
      },
      keep,
    );
  });
  await hooks.close();
});
