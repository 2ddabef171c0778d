import { join } from 'node:path';
import { bundleWorker, makeTemp, removeTemp, runNode } from '../stress/helpers';
import { describeWithDatabase } from '../support/test-database';
import { describeStoreContract } from './store-contract';

// The stress suite's worker, bundled once for this file: each process runs the real service on the PostgreSQL store.
describeWithDatabase('PgStore', (db) => {
  const folder = makeTemp();
  afterAll(() => removeTemp(folder));
  let worker: string | undefined;
  describeStoreContract(
    'PgStore',
    () => {
      const store = db.store();
      return {
        store,
        plantCorrupt: (id, modifiedAt, project) =>
          store.putRaw(id, JSON.stringify({ torn: true, project }), modifiedAt),
        concurrentUpdates: async (id, workers, count) => {
          worker ??= bundleWorker(folder);
          const script = worker;
          const env = { AGENT_SESSION_DATABASE_URL: db.url, AGENT_SESSION_DATABASE_SCHEMA: db.schema };
          const runs = Array.from({ length: workers }, (_, w) =>
            runNode(script, ['updates', join(folder, 'unused'), id, String(w), String(count)], folder, env),
          );
          for (const result of await Promise.all(runs))
            expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
        },
        dispose: async () => {
          await store.close();
          await db.truncate();
        },
      };
    },
    { multiProcess: true, maintenance: false },
  );
});
