// A stand-in relay for scripts/make-code-cache.cjs: the hooks' calls through the PostgreSQL relay are compiled into
// their code caches like every other representative call, without a database. It speaks the relay's protocol
// (src/store/relay/relay-protocol.ts) over its unix socket, with sessions kept in memory: enough for each call to take
// its usual path (a resume, a relink, a stop). Not shipped.
'use strict';
const { createServer } = require('node:net');

/**
 * Listens on `socket` (unref'd: it never keeps the process alive) and answers as a relay would, holding `states`
 * (session states by id). Returns the server and a counter of the connections it accepted.
 */
exports.startCacheRelay = function startCacheRelay(socket, states) {
  const sessions = new Map(states.map((state) => [state.agent_id, state]));
  const date = (ms) => ({ $t: 'date', v: ms });
  const linkedTo = (claudeId) => [...sessions.values()].find((state) => state.claude?.agent_id === claudeId) ?? null;
  const answer = (call, args) => {
    switch (call) {
      case 'now':
        return date(Date.now());
      case 'newestOf':
        return [...sessions.values()].find((state) => state.agent_name === args[0]) ?? null;
      case 'read':
        return sessions.get(args[0]) ?? null;
      case 'readVersioned': {
        const state = sessions.get(args[0]);
        return state === undefined ? null : { version: '1', state, problem: null, writtenAt: date(Date.now()) };
      }
      case 'writeVersioned':
        sessions.set(args[0], args[2]);
        return true;
      case 'create':
        sessions.set(args[0].agent_id, args[0]);
        return undefined;
      case 'attachedTo':
      case 'findByClaudeAgent':
        return linkedTo(args[0]);
      case 'newestPerAgent':
        return [...sessions.values()];
      default:
        return undefined;
    }
  };
  const counted = { connections: 0 };
  const server = createServer((connection) => {
    counted.connections++;
    connection.unref();
    let buffer = '';
    let greeted = false;
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
        const tagged = JSON.stringify(value ?? null).includes('"$t"');
        connection.write(
          `${JSON.stringify({ id: message.id, ...(tagged ? { tagged: 1 } : {}), ...(value === undefined ? {} : { ok: value }) })}\n`,
        );
      }
    });
    connection.on('error', () => undefined);
  });
  // Held open until it listens (the first run waits for that), then never what keeps the process alive.
  server.listen(socket, () => server.unref());
  return { server, counted };
};
