import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '../../src/store/file-store';
import { bundleWorker, runNode } from '../stress/helpers';
import { describeStoreContract, type StoreHarness } from './store-contract';

// The stress suite's worker, bundled once for this file: each process runs the real service and file store code
// (its `updates` mode adds the metadata key `w<worker>_<i>` = i per update, with phase changes and errors mixed in).
const bundleDir = mkdtempSync(join(tmpdir(), 'agent-session-contract-'));
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));
let worker: string | undefined;

/** A file store in a temp folder: `home` is the project of its folder (files of it name none), null: none. */
function fileHarness(home: string | null): StoreHarness {
  const dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  const root = join(dir, 'store');
  return {
    store: new FileStore(root, { home }),
    ...(home === null ? {} : { home }),
    plantCorrupt: (id, modifiedAt, project) => {
      mkdirSync(join(root, id), { recursive: true });
      // Damaged, yet still showing it is ours (it names its id): cleanup and delete remove only those.
      const torn = { schema_version: 1, agent_id: id, phase: 'torn', project };
      writeFileSync(join(root, id, 'state.json'), JSON.stringify(torn));
      if (modifiedAt !== undefined) utimesSync(join(root, id, 'state.json'), modifiedAt, modifiedAt);
    },
    concurrentUpdates: async (id, workers, count) => {
      worker ??= bundleWorker(bundleDir);
      const script = worker;
      const runs = Array.from({ length: workers }, (_, w) =>
        runNode(script, ['updates', root, id, String(w), String(count)], dir),
      );
      for (const result of await Promise.all(runs))
        expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// A store of no folder's (AGENT_SESSION_DIR elsewhere): every session's file names its project.
describeStoreContract('FileStore', () => fileHarness(null), { multiProcess: true, maintenance: true });

// A project's own store: the files of its sessions name no project (exactly as before projects); others' do.
describeStoreContract('FileStore of a project folder', () => fileHarness('github.com/acme/api'), {
  multiProcess: false,
  maintenance: true,
});
