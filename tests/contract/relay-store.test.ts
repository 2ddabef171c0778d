import { connect } from 'node:net';
import { join } from 'node:path';
import { SessionError } from '../../src/core/errors';
import { newSession } from '../../src/core/session';
import type { SessionState } from '../../src/core/state';
import { askRelay } from '../../src/store/relay/relay-admin';
import { RELAY_BUILD, RELAY_GREETING, RELAY_PROTOCOL } from '../../src/store/relay/relay-protocol';
import { PgStore } from '../../src/store/postgres/pg-store';
import { bundleWorker, makeTemp, removeTemp, runNode } from '../stress/helpers';
import { startRelay, type InProcessRelay } from '../support/relays';
import { describeWithDatabase } from '../support/test-database';
import { describeStoreContract } from './store-contract';

// The hooks' store (src/store/relay/relay-store.ts) is the PostgreSQL store reached through the relay: the same
// contract, every call a round trip to a relay running in this process. Concurrent updates come from worker processes
// that reach the same relay (AGENT_SESSION_WORKER_STORE=relay). Both transports of the client run it.
describeWithDatabase('RelayStore', (db) => {
  const folder = makeTemp();
  let relay: InProcessRelay;
  let worker: string | undefined;
  beforeAll(async () => {
    relay = await startRelay(db.url, db.schema, folder);
  });
  afterAll(async () => {
    await relay.stop();
    removeTemp(folder);
  });

  for (const transport of ['pipe', 'net'] as const)
    describeStoreContract(
      `RelayStore (${transport})`,
      () => {
        // Side by side, as a library would attach (the contract's concurrent cases); a hook's store is one step at
        // a time (tests/e2e/relay.test.ts).
        const store = relay.client({ transport, concurrent: true });
        // Rows planted by hand go in directly: no relay method writes garbage.
        const direct = new PgStore({ url: db.url, schema: db.schema });
        return {
          store,
          plantCorrupt: (id, modifiedAt, project) =>
            direct.putRaw(id, JSON.stringify({ torn: true, project }), modifiedAt),
          concurrentUpdates: async (id, workers, count) => {
            worker ??= bundleWorker(folder);
            const script = worker;
            const env = {
              AGENT_SESSION_DATABASE_URL: db.url,
              AGENT_SESSION_DATABASE_SCHEMA: db.schema,
              AGENT_SESSION_WORKER_STORE: 'relay',
              AGENT_SESSION_WORKER_RELAY_DIR: relay.place.dir,
            };
            const runs = Array.from({ length: workers }, (_, w) =>
              runNode(script, ['updates', join(folder, 'unused'), id, String(w), String(count)], folder, env),
            );
            for (const result of await Promise.all(runs))
              expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
          },
          dispose: async () => {
            expect(store.route.via).toBe('relay');
            await store.close();
            await direct.close();
            await db.truncate();
          },
        };
      },
      { multiProcess: true, maintenance: false },
    );
});

// What the relay's client does beyond the contract, to save round trips, and must never get wrong.
describeWithDatabase('RelayStore, beyond the contract', (db) => {
  const folder = makeTemp();
  let relay: InProcessRelay;
  beforeAll(async () => {
    relay = await startRelay(db.url, db.schema, folder);
  });
  afterAll(async () => {
    await relay.stop();
    removeTemp(folder);
  });
  afterEach(() => db.truncate());
  const requests = async (): Promise<number> => {
    const status = await askRelay(relay.place, relay.store, '$status');
    return status.running ? (status.value as { requests: number }).requests : -1;
  };
  const state = (id: string): SessionState =>
    newSession({ agent_id: id, agent_name: 'alpha', purpose: 'relay' }, new Date());

  it('an update right after a read writes with no read first (one request), and applies to what is stored now when another writer got in between', async () => {
    const store = relay.client();
    const other = new PgStore({ url: db.url, schema: db.schema });
    try {
      await store.create(state('s1'));
      await store.read('s1');
      const before = await requests();
      await store.update('s1', (current) => ({ ...current, metadata: { ...current.metadata, a: 1 } }));
      // writeIfUnchanged alone (the status question counts one).
      expect((await requests()) - before).toBe(2);

      await store.read('s1');
      await other.update('s1', (current) => ({ ...current, metadata: { ...current.metadata, b: 2 } }));
      const seen: unknown[] = [];
      const next = await store.update('s1', (current) => {
        seen.push(current.metadata.b);
        return { ...current, metadata: { ...current.metadata, c: 3 } };
      });
      // Judged first on what it read (b absent), refused by the compare, then on what is stored (b = 2).
      expect(seen).toEqual([undefined, 2]);
      expect(next.metadata).toEqual({ a: 1, b: 2, c: 3 });
      expect((await other.read('s1'))!.metadata).toEqual({ a: 1, b: 2, c: 3 });
    } finally {
      await store.close();
      await other.close();
    }
  });

  it('a change that refuses the state it read is asked again on the stored state before its refusal counts', async () => {
    const store = relay.client();
    const other = new PgStore({ url: db.url, schema: db.schema });
    try {
      await store.create(state('s2'));
      await store.read('s2');
      await other.update('s2', (current) => ({ ...current, metadata: { ...current.metadata, ready: true } }));
      const next = await store.update('s2', (current) => {
        if (current.metadata.ready !== true) throw new SessionError('E_ILLEGAL_TRANSITION', 'not ready');
        return { ...current, metadata: { ...current.metadata, done: true } };
      });
      expect(next.metadata).toEqual({ ready: true, done: true });
    } finally {
      await store.close();
      await other.close();
    }
  });

  it("a call sent as a transaction's runs only inside one: when its $lock failed, it is refused and nothing is written", async () => {
    const socket = connect(relay.place.socket);
    const lines: string[] = [];
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        lines.push(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
      }
    });
    const send = (message: unknown): boolean => socket.write(`${JSON.stringify(message)}\n`);
    send({ relay: RELAY_GREETING, protocol: RELAY_PROTOCOL, build: RELAY_BUILD, store: relay.store });
    // A $lock that fails (no agent type string), then a create marked as that transaction's, back to back.
    send({ id: 1, call: '$lock', args: ['claude-1', 42] });
    send({ id: 2, call: 'create', tx: 1, args: [state('s3')] });
    const deadline = Date.now() + 5_000;
    while (lines.length < 3 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
    socket.destroy();
    const [, lock, create] = lines.map((line) => JSON.parse(line) as { id: number; error?: { code: string } });
    expect(lock).toMatchObject({ id: 1, error: { code: 'E_USAGE' } });
    expect(create).toMatchObject({ id: 2, error: { code: 'E_USAGE' } });
    expect(await db.sql('SELECT id FROM $s.sessions')).toEqual([]);
  });
});
