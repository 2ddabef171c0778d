import { MemoryStore } from '../../src/store/memory-store';
import { describeStoreContract } from './store-contract';

describeStoreContract(
  'MemoryStore',
  () => {
    const store = new MemoryStore();
    return {
      store,
      plantCorrupt: (id, modifiedAt) => store.putRaw(id, '{"torn": ', modifiedAt),
      dispose: () => undefined,
    };
  },
  { multiProcess: false },
);
