import { MemoryStore } from '../../src/store/memory-store';
import { describeStoreContract } from './store-contract';

describeStoreContract(
  'MemoryStore',
  () => {
    const store = new MemoryStore({ home: null });
    return {
      store,
      plantCorrupt: (id, modifiedAt, project) =>
        store.putRaw(id, project === undefined ? '{"torn": ' : JSON.stringify({ torn: true, project }), modifiedAt),
      dispose: () => undefined,
    };
  },
  { multiProcess: false, maintenance: false },
);

// With a home project, as a file store in a project's folder: its sessions are kept without a project.
describeStoreContract(
  'MemoryStore with a home project',
  () => {
    const store = new MemoryStore({ home: 'github.com/acme/api' });
    return {
      store,
      home: 'github.com/acme/api',
      plantCorrupt: (id, modifiedAt, project) =>
        store.putRaw(id, project === undefined ? '{"torn": ' : JSON.stringify({ torn: true, project }), modifiedAt),
      dispose: () => undefined,
    };
  },
  { multiProcess: false, maintenance: false },
);
