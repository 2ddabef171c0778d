import { MemoryStore } from '../../src/store/memory-store';
import { describeStoreContract } from './store-contract';

describeStoreContract(
  'MemoryStore',
  () => {
    const store = new MemoryStore();
    return { store, plantCorrupt: (id) => store.putRaw(id, '{"torn": '), dispose: () => undefined };
  },
  { multiProcess: false },
);
