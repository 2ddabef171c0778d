// An Agent SDK app as a user writes one, for the real-SDK host test (sdk.host.ts): `query()` from the pinned
// @anthropic-ai/claude-agent-sdk with agent-session's in-process hooks (the built library, dist/index.cjs) and one
// sub-agent, the terraform architect. Run as `node sdk-app.mjs <config.json>`; the config names the prompt, the project
// folder and the agent's definition. Prints every SDK message as one JSON line; every hook payload the SDK handed
// our callbacks, and what they answered, goes to `trace` (JSON lines), for the test's checks.
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { query, tool, createSdkMcpServer } from '@anthropic-ai/claude-agent-sdk';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const require = createRequire(import.meta.url);
const { agentSessionHooks } = require(config.library);

/** The SDK's `tool`, its handlers' calls traced: what the SDK hands a handler besides its input (`extra`). */
function traced(make) {
  return (name, description, shape, handler, ...rest) =>
    make(
      name,
      description,
      shape,
      async (args, extra) => {
        const result = await handler(args, extra);
        appendFileSync(config.trace, `${JSON.stringify({ event: 'tool', input: { args, extra }, answer: result })}\n`);
        return result;
      },
      ...rest,
    );
}

// `lazy`: the library loads the SDK itself (its import() from CommonJS); else the app hands over its functions.
const session = await agentSessionHooks({
  cwd: config.cwd,
  ...(config.lazy ? {} : { sdk: { tool: traced(tool), createSdkMcpServer } }),
});
// Every callback traced: the payload in, the answer out (the test reads which events fired and what we said).
const hooks = Object.fromEntries(
  Object.entries(session.hooks).map(([event, groups]) => [
    event,
    groups.map((group) => ({
      ...group,
      hooks: group.hooks.map((callback) => async (input, toolUseId, options) => {
        const answer = await callback(input, toolUseId, options);
        appendFileSync(config.trace, `${JSON.stringify({ event, input, toolUseId, answer })}\n`);
        return answer;
      }),
    })),
  ]),
);
/**
 * With `canUseTool`: the library's permission callback as the app's `options.canUseTool`, the app's own callback (which
 * allows what its main agent asks) as its fallback, as docs/library.md shows; each call traced.
 */
const permissions = config.canUseTool
  ? {
      canUseTool: async (name, input, options) => {
        const answer = await session.canUseTool(name, input, options, async (_name, asked) => ({
          behavior: 'allow',
          updatedInput: asked,
        }));
        const asked = { name, input, agentID: options.agentID, toolUseID: options.toolUseID };
        appendFileSync(config.trace, `${JSON.stringify({ event: 'canUseTool', input: asked, answer })}\n`);
        return answer;
      },
    }
  : {};
/** The query; with `interruptAfterMs`, interrupted that long after its sub-agent started (the app's own stop). */
let running;
try {
  for await (const message of (running = query({
    prompt: config.prompt,
    options: {
      cwd: config.cwd,
      hooks,
      mcpServers: session.mcpServers,
      agents: config.agents,
      // Our hooks are these callbacks: no settings file wires them (or anything else) a second time.
      settingSources: [],
      permissionMode: 'default',
      ...permissions,
      env: config.env,
      ...(config.executable ? { pathToClaudeCodeExecutable: config.executable } : {}),
      stderr: (data) => appendFileSync(config.stderr, data),
    },
  }))) {
    process.stdout.write(`${JSON.stringify(message)}\n`);
    if (config.interruptAfterMs !== undefined && message.type === 'system' && message.subtype === 'task_started')
      setTimeout(() => void running.interrupt(), config.interruptAfterMs);
  }
} finally {
  await session.close();
}
