// The service on the memory store, for tests of decisions, policies, answers and context text: no disk, and one test
// clock for both the service's rules and the store's write times. Tests whose subject is the disk use the FileStore.
import type { Limits } from '../../src/core/limits';
import type { DecisionOrigin } from '../../src/core/origin';
import { AT_TERMINAL } from './origin';
import { Sessions } from '../../src/service/sessions';
import { MemoryStore } from '../../src/store/memory-store';

/** What a test may set: the clock (default: the real one), the limits and history cap, the ids' random part. */
export interface MemorySessionsOptions {
  readonly now?: () => Date;
  readonly limits?: Limits;
  readonly historyCap?: number;
  /** Default: a counter (`00000000`, `00000001`, …), so generated ids are known in advance. */
  readonly randomHex?: () => string;
  /** Where decisions come from; default: a user at a terminal (never the test process's own facts). */
  readonly decisionOrigin?: () => DecisionOrigin;
  /** `permission_inbox` (default `background`). */
  readonly permissionInbox?: 'background' | 'always' | 'off';
}

/** A fresh MemoryStore and the Sessions service over it. */
export function memorySessions(options: MemorySessionsOptions = {}): { sessions: Sessions; store: MemoryStore } {
  const store = new MemoryStore(options.now === undefined ? {} : { now: options.now });
  let n = 0;
  const sessions = new Sessions({
    store,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.historyCap === undefined ? {} : { historyCap: options.historyCap }),
    randomHex: options.randomHex ?? (() => (n++).toString(16).padStart(8, '0')),
    decisionOrigin: options.decisionOrigin ?? (() => AT_TERMINAL),
    ...(options.permissionInbox === undefined ? {} : { permissionInbox: options.permissionInbox }),
  });
  return { sessions, store };
}
