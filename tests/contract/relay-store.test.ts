import { join } from 'node:path';
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
          plantCorrupt: (id, modifiedAt) => direct.putRaw(id, '{"torn": true}', modifiedAt),
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
      { multiProcess: true },
    );
});
