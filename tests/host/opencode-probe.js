// A probe plugin for the real-opencode host test (tests/host/opencode.host.ts): it logs every plugin hook opencode
// calls, with its input and output, one JSON line each, and does what its config (the JSON file PROBE_CONFIG names)
// asks, to find out what a hook can change: rewrite a `task` call's arguments, add to the system prompt or to a user
// message, reply to a permission request through the plugin's client. With `library`, it loads agent-session's built
// library in opencode's runtime (Bun), runs tests/host/library-probe.cjs there, and times a read and a write of a
// session at each hook call (the in-process cost per event).
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const config = JSON.parse(readFileSync(process.env.PROBE_CONFIG, 'utf8'));
const require = createRequire(import.meta.url);

/** A JSON copy that survives cycles, functions and long texts (system prompts run to kilobytes). */
function copy(value) {
  const seen = new WeakSet();
  return JSON.parse(
    JSON.stringify(value ?? null, (_key, item) => {
      if (typeof item === 'function') return `[function ${item.name}]`;
      if (typeof item === 'string' && item.length > (config.maxText ?? 4000))
        return `${item.slice(0, config.maxText ?? 4000)}…[${item.length} chars]`;
      if (typeof item === 'object' && item !== null) {
        if (seen.has(item)) return '[cycle]';
        seen.add(item);
      }
      return item;
    }),
  );
}

function log(hook, input, output, extra = {}) {
  // `throwIn`: the hooks that throw (`tool.execute.before:bash`: only for that tool), to see what a failing plugin does.
  const throwIn = config.throwIn ?? [];
  if (throwIn.includes(hook) || (input?.tool !== undefined && throwIn.includes(`${hook}:${input.tool}`)))
    throw new Error(`probe plugin: thrown in ${hook} as configured`);
  appendFileSync(
    config.log,
    `${JSON.stringify({ t: Date.now(), hook, input: copy(input), output: copy(output), ...extra })}\n`,
  );
}

/** Method names of an object and its prototypes (the SDK client's calls are prototype methods of nested classes). */
function methods(object) {
  const names = new Set();
  for (let o = object; o && o !== Object.prototype; o = Object.getPrototypeOf(o))
    for (const name of Object.getOwnPropertyNames(o))
      if (name !== 'constructor' && !name.startsWith('_')) names.add(name);
  return [...names].sort();
}

export const Probe = async (ctx) => {
  const client = ctx.client;
  log('init', {
    keys: Object.keys(ctx).sort(),
    directory: ctx.directory,
    worktree: ctx.worktree,
    project: ctx.project,
    serverUrl: String(ctx.serverUrl),
    cwd: process.cwd(),
    runtime: { bun: process.versions.bun ?? null, node: process.version },
    client: methods(client),
    clientPermission: client.permission ? methods(client.permission) : null,
    clientSession: client.session ? methods(client.session) : null,
  });

  let probe;
  let bursted = false;
  const { probeLibrary, openProbe, burst } = require(config.probeModule);
  if (config.library !== undefined) {
    const started = performance.now();
    const result = await probeLibrary({
      library: config.library,
      store: config.store,
      cwd: ctx.directory,
      holderPid: process.ppid,
    });
    log('library', result, null, { ms: performance.now() - started });
    probe = await openProbe(config.library, config.eventStore, ctx.directory);
  }
  /** The cost of a read and a write of a session at this hook call, logged with it. */
  let writes = 0;
  const cost = async () =>
    probe === undefined ? {} : { readMs: await probe.read(), writeMs: await probe.write({ w: ++writes }) };

  const replied = new Set();
  /** `tools`: a tool of the plugin's own, its zod from `@opencode-ai/plugin` (`plugin`) or from another copy (a path). */
  const tools = {};
  for (const [name, zodFrom] of Object.entries(config.tools ?? {})) {
    const z = zodFrom === 'plugin' ? (await import('@opencode-ai/plugin')).tool.schema : require(zodFrom).z;
    tools[name] = {
      description: `Records the agent's phase (${name}).`,
      args: { phase: z.string().describe('The phase'), note: z.string().optional() },
      async execute(args, context) {
        // The context as JSON: its functions and the conversation (`messages`) and model (`extra`) left out.
        const { abort: _abort, metadata: _metadata, ask: _ask, messages, extra, ...seen } = context;
        seen.messages = messages?.length;
        seen.extra = Object.keys(extra ?? {}).sort();
        log(`tool:${name}`, { args, context: seen }, null);
        return `Recorded ${args.phase} for ${context.agent} in ${context.sessionID}`;
      },
    };
  }
  return {
    ...(config.tools === undefined ? {} : { tool: tools }),
    dispose: async () => {
      log('dispose', {}, null);
      await probe?.close();
    },
    event: async ({ event }) => {
      log(`event:${event.type}`, event.properties, null, await cost());
      if (event.type === 'permission.asked' && !replied.has(event.properties.id)) {
        const { id, sessionID, patterns } = event.properties;
        // The first configured answer whose key is in one of the request's patterns (the bash command).
        const answer = Object.entries(config.permissionReplies ?? {}).find(([key]) =>
          patterns.some((p) => p.includes(key)),
        )?.[1];
        if (answer === undefined) return;
        replied.add(id);
        // A person deciding takes a while: does `opencode run` wait for the reply? (It does not: it rejects at once.)
        if (answer.delayMs !== undefined) await new Promise((done) => setTimeout(done, answer.delayMs));
        let result;
        try {
          const response =
            answer.call === 'v2'
              ? // The v2 route (what `opencode run --auto` calls), through the v1 client's own HTTP client: it takes
                // a message that the model reads with a rejection.
                await client._client.post({
                  url: '/permission/{requestID}/reply',
                  path: { requestID: id },
                  body: { reply: answer.reply, ...(answer.message === undefined ? {} : { message: answer.message }) },
                  headers: { 'Content-Type': 'application/json' },
                })
              : // The v1 client's call (what PluginInput types): the session's permission, answered.
                await client.postSessionIdPermissionsPermissionId({
                  path: { id: sessionID, permissionID: id },
                  body: { response: answer.reply },
                });
          result = { status: response.response?.status, data: response.data ?? null, error: response.error ?? null };
        } catch (error) {
          result = { thrown: String(error) };
        }
        log('permission.reply', { id, sessionID, ...answer }, result);
      }
    },
    'chat.message': async (input, output) => {
      log('chat.message', input, output, await cost());
      if (config.chatPart !== undefined && input.agent === undefined && output.parts[0] !== undefined) {
        const first = output.parts[0];
        output.parts.push({ ...first, id: `${first.id}x`, text: config.chatPart, synthetic: true });
      }
    },
    'chat.params': async (input, output) =>
      log(
        'chat.params',
        { sessionID: input.sessionID, agent: input.agent, model: input.model?.id, message: input.message },
        output,
        await cost(),
      ),
    'tool.execute.before': async (input, output) => {
      log('tool.execute.before', input, output, await cost());
      if (input.tool !== 'task') return;
      if (config.prependPrompt !== undefined) output.args.prompt = `${config.prependPrompt}${output.args.prompt}`;
      if (config.taskId !== undefined) output.args.task_id = config.taskId;
    },
    'tool.execute.after': async (input, output) => {
      log('tool.execute.after', input, output, await cost());
      // Once, while opencode waits on this hook (it awaits tool.execute.after): calls back to back, mid-run.
      if (probe !== undefined && input.tool === 'task' && !bursted) {
        bursted = true;
        log('burst', await burst(probe, config.burst ?? 30), null);
      }
    },
    'permission.ask': async (input, output) => {
      log('permission.ask', input, output);
      if (config.permissionAsk !== undefined) output.status = config.permissionAsk;
    },
    'shell.env': async (input, output) => {
      log('shell.env', input, output);
      output.env.PROBE_SHELL_ENV = 'set-by-plugin';
    },
    'experimental.chat.system.transform': async (input, output) => {
      log(
        'experimental.chat.system.transform',
        { sessionID: input.sessionID, model: input.model?.id },
        { count: output.system.length },
      );
      if (config.system !== undefined) output.system.push(`${config.system} (session ${input.sessionID})`);
    },
    'experimental.chat.messages.transform': async (_input, output) =>
      log(
        'experimental.chat.messages.transform',
        {},
        { sessions: [...new Set(output.messages.map((m) => m.info.sessionID))], count: output.messages.length },
      ),
  };
};
