import { SessionError, isSessionError } from '../../core/errors';
import type { SessionState } from '../../core/state';
import type { RemovalOutcome, SessionStore } from '../../service/store';
import { decodeState, encodeState } from '../codec';
import { removeByVersion, updateByVersion, type VersionedRow, type VersionedRows } from '../versioned';
import { checkFolder, checkSocket, ensureFolder, markStarting, MAX_SOCKET_PATH, type RelayPlace } from './relay-folder';
import { RelayFault, RelayLink } from './relay-link';
import type { TransportKind } from './relay-transport';
import { KeyedSerializer } from '../../platform/serial';

/** How the relay's client is set up (src/app/relay-client.ts). */
export interface RelayStoreOptions {
  /** The relay's files (relay-folder.ts). */
  readonly place: RelayPlace;
  /** The store's options as the relay opens them (the URL, the schema, …): sent in the hello. */
  readonly store: Readonly<Record<string, unknown>>;
  /** The store as shown (the URL masked). */
  readonly location: string;
  /** The whole budget of this store, from its opening (a hook's 5 s): the relay's answers and a direct connection's. */
  readonly totalMs: number;
  /** Opens the store directly (the PostgreSQL store), with the time left of the budget. */
  readonly direct: (timeLeftMs: number) => SessionStore & VersionedRows;
  /** Starts a relay in the background (detached; null: this process cannot, e.g. run from the sources). */
  readonly start: (() => void) | null;
  /** How to reach the socket (default: as AGENT_SESSION_RELAY_TRANSPORT says; relay-transport.ts). */
  readonly transport?: TransportKind;
  /**
   * Callers that attach side by side (a library, tests): each `lockClaudeAgent` gets a connection of its own and its
   * calls are told apart by their async context (node:async_hooks). Without it (a hook: one step at a time), the one
   * connection carries the transaction and every call made while it is open is its: no async context, which costs a
   * hook ~5 M instructions.
   */
  readonly concurrent?: boolean;
}

/** A transaction held on the relay while `lockClaudeAgent`'s work runs. */
interface Transaction {
  readonly link: RelayLink;
  /**
   * The locks to take (`$lock`'s arguments) until the work's first call, which takes them on its way: `$lock` and that
   * call go together, one round trip (the relay runs a call marked as the transaction's only inside one).
   */
  lock: readonly [string, string] | null;
  /** The answer of `$lock`, once sent. */
  locked: Promise<unknown> | null;
  /** Why the relay stopped answering inside it, once it did. */
  lost: RelayFault | null;
}

/** How many states a store keeps of what it read (for `update`'s first attempt; a hook reads a handful). */
const KNOWN_STATES = 32;

/** How long a relay has to greet: a live one answers at once; one that accepts and stays silent is given up on. */
export const HELLO_MS = 1_000;

/** The methods that change nothing: sent again on a direct connection when the relay did not answer them. */
const READS: ReadonlySet<string> = new Set([
  'read',
  'readVersioned',
  'newestOf',
  'findByClaudeAgent',
  'attachedTo',
  'newestPerAgent',
  'list',
  'idsContaining',
  'query',
  'page',
  'stats',
  'aged',
  'now',
]);

/** What a process learnt about its relay, for its log and for tests. */
export interface RelayRoute {
  /** `relay` while the relay answers; `direct` once this store connected directly; `none` before the first call. */
  readonly via: 'relay' | 'direct' | 'none';
  /** Why it went direct (no relay, a stale socket, a refused folder, a fault), when it did. */
  readonly why?: string;
  /** Whether this process started a relay. */
  readonly started: boolean;
}

/**
 * The PostgreSQL store as a hook reaches it through the local relay (relay-server.ts), which holds the connection: a
 * hook loads no PostgreSQL driver, and neither connects nor authenticates (docs/relay.md).
 *
 * Every method of the store is forwarded as it is (its name and JSON arguments, then its result or its SessionError):
 * a method this client does not name goes through `call`, so the store's interface may change without this file.
 * Only what a callback needs runs here, because a callback cannot travel: `update` and a judged `remove` are
 * compare-and-swap loops over the store's versioned rows (versioned.ts), and `lockClaudeAgent` holds a transaction on
 * the relay (`$lock`) for the time `work` runs here, its calls running inside it, until `$commit` or `$rollback`.
 *
 * Falls back to a direct connection (`direct`) for the rest of the process, when the relay is absent, stale, refused,
 * slow to greet, or answers garbage; a relay found absent or stale is started in the background for the next
 * process. A request the relay may have run is never sent again, unless it only reads (READS): a write without an
 * answer is E_IO (a hook fails open), so nothing is written twice. A transaction the relay lost before `$commit` was
 * rolled back with the relay's connection, so it is run again directly; lost after `$commit`, its outcome is unknown:
 * E_IO. One caller at a time (a hook's process): calls made while `lockClaudeAgent` runs are taken as its own.
 */
export class RelayStore {
  readonly location: string;
  /** A database has no folder hygiene (SessionStore.maintenance); declared, so the Proxy forwards no such method. */
  readonly maintenance: undefined = undefined;
  readonly #options: RelayStoreOptions;
  readonly #openedAt = Date.now();
  /** undefined: not tried yet; null: no relay for this process. */
  #link: RelayLink | null | undefined;
  #direct: (SessionStore & VersionedRows) | null = null;
  /** The transaction open now (one caller at a time; see `concurrent`). */
  #tx: Transaction | null = null;
  /** With `concurrent`: each transaction in the async context of its work, and the order of attaches per key. */
  readonly #context: {
    readonly storage: import('node:async_hooks').AsyncLocalStorage<Transaction>;
    readonly serial: KeyedSerializer;
  } | null;
  #clock: { readonly server: number; readonly at: number } | null = null;
  #route: { via: RelayRoute['via']; why?: string; started: boolean } = { via: 'none', started: false };
  readonly #rows: VersionedRows;
  /**
   * The states this store last read or wrote, by id: `update` applies its change to the one it knows and writes it if
   * the stored state is still that one (writeIfUnchanged), with no read first; else it reads as usual.
   */
  readonly #knownStates = new Map<string, SessionState>();

  constructor(options: RelayStoreOptions) {
    this.#options = options;
    this.location = options.location;
    if (options.concurrent === true) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- never loaded on a hook's path (see above)
      const { AsyncLocalStorage } = require('node:async_hooks') as typeof import('node:async_hooks');
      this.#context = { storage: new AsyncLocalStorage<Transaction>(), serial: new KeyedSerializer() };
    } else this.#context = null;
    this.#rows = {
      location: this.location,
      readVersioned: (id, lock) => this.call('readVersioned', [id, lock]) as Promise<VersionedRow | null>,
      writeVersioned: (id, version, state) => this.call('writeVersioned', [id, version, state]) as Promise<boolean>,
      removeVersioned: (id, version) => this.call('removeVersioned', [id, version]) as Promise<boolean>,
      // A transaction on the relay, as an attach's: its advisory lock on a key no Claude agent id has is only a
      // wait among such writers; the row lock of `readVersioned(id, true)` is what lets the write through.
      exclusive: (id, work) => this.lockClaudeAgent(`session:${id}`, '', work),
    };
  }

  /** How this store reached the database so far. */
  get route(): RelayRoute {
    return { ...this.#route };
  }

  /**
   * Any method of the store, by name: through the relay, or directly once this process went direct.
   * @throws SessionError as the store throws it; E_IO when the relay stopped answering a request that changes data
   */
  async call(method: string, args: readonly unknown[]): Promise<unknown> {
    // Trailing undefined arguments are left out, so the store's defaults apply on the relay as they would here.
    let count = args.length;
    while (count > 0 && args[count - 1] === undefined) count--;
    const sent = count === args.length ? args : args.slice(0, count);
    if (this.#direct !== null) return this.#known(method, sent, await this.#invokeDirect(method, sent));
    const tx = this.#current();
    const link = tx?.link ?? this.#connect();
    if (link === null) return this.#known(method, sent, await this.#invokeDirect(method, sent));
    try {
      if (tx?.lock) {
        const lock = tx.lock;
        tx.lock = null;
        // Sent right before this call (taking locks changes nothing, so behind the hello too); its failure is this
        // call's answer as well (the relay refuses a call of a transaction it could not open).
        tx.locked = link.request('$lock', lock, true);
        tx.locked.catch(() => undefined);
      }
      return this.#known(method, sent, await link.request(method, sent, READS.has(method), tx !== null));
    } catch (error) {
      if (error instanceof RangeError) throw tooDeep(method);
      if (!(error instanceof RelayFault)) throw error;
      if (tx !== null) {
        tx.lost ??= error;
        throw lostInTransaction(error);
      }
      if (!error.delivered || READS.has(method)) {
        this.#goDirect(error);
        return this.#invokeDirect(method, sent);
      }
      this.#goDirect(error);
      throw new SessionError(
        'E_IO',
        `The relay of ${this.location} stopped answering (${error.message}) after \`${method}\` was sent: whether it ` +
          'was done is unknown, so it is not sent again',
      );
    }
  }

  /** The database's clock: read once (one round trip, right behind the hello), then advanced by this process's. */
  async now(): Promise<Date> {
    if (this.#clock === null) {
      const server = (await this.call('now', [])) as Date;
      // A direct store keeps its own clock: asked again each time, as the PostgreSQL store is.
      if (this.#direct !== null) return server;
      this.#clock = { server: server.getTime(), at: Date.now() };
    }
    if (this.#direct !== null) return this.#direct.now();
    return new Date(this.#clock.server + (Date.now() - this.#clock.at));
  }

  async update(id: string, change: (state: SessionState) => SessionState): Promise<SessionState> {
    const known = this.#knownStates.get(id);
    if (known !== undefined) {
      this.#knownStates.delete(id);
      let next: SessionState | undefined;
      try {
        // A copy: the change may alter its argument, and what is known must stay what was read.
        next = decodeState(id, encodeState(change(structuredClone(known))), 'the changed state');
      } catch {
        // Judged on a state that may be stale: judged again below, on the stored one.
      }
      if (next !== undefined && (await this.call('writeIfUnchanged', [id, known, next])) === true) {
        this.#remember(next);
        return next;
      }
    }
    const next = await updateByVersion(this.#rows, id, change);
    this.#remember(next);
    return next;
  }

  remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<boolean> {
    if (shouldRemove === undefined) return this.call('remove', [id]) as Promise<boolean>;
    return removeByVersion(this.#rows, id, shouldRemove);
  }

  /** Each id as a judged `remove` (the callback runs here); a busy or unreachable one is its own outcome. */
  async removeMany(
    ids: readonly string[],
    shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean,
  ): Promise<RemovalOutcome[]> {
    const outcomes: RemovalOutcome[] = [];
    for (const id of ids) {
      try {
        outcomes.push({ id, removed: await removeByVersion(this.#rows, id, shouldRemove) });
      } catch (error) {
        if (!isSessionError(error, 'E_BUSY') && !isSessionError(error, 'E_IO')) throw error;
        outcomes.push({ id, error });
      }
    }
    return outcomes;
  }

  /**
   * Runs `work` holding the store's locks of one Claude agent and one agent type, in one transaction: on the relay
   * (`$lock` … `$commit`), or directly. See the class comment for what happens when the relay stops answering.
   */
  async lockClaudeAgent<T>(claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T> {
    if (this.#direct !== null) return this.#direct.lockClaudeAgent(claudeAgentId, agentType, work);
    const inside = this.#current();
    if (inside !== null) {
      // Inside the transaction already: its locks are taken again there (re-entrant), and `work` is part of it.
      await this.call('$lock', [claudeAgentId, agentType]);
      return work();
    }
    const context = this.#context;
    if (context === null) return this.#transaction(this.#connect(), claudeAgentId, agentType, work);
    // Callers of one key in the order they came (the relay's advisory locks order processes, not this one's callers).
    const keys = agentType === '' ? [`agent:${claudeAgentId}`] : [`agent:${claudeAgentId}`, `type:${agentType}`];
    return context.serial.run(keys, () =>
      this.#transaction(this.#connect() === null ? null : this.#newLink(), claudeAgentId, agentType, work),
    );
  }

  /** Ends the connection to the relay, or the direct one. */
  async close(): Promise<void> {
    this.#link?.close();
    await this.#direct?.close();
  }

  // --- internal ---

  /** `value`, the answer of `method`, after remembering the states in it (see #knownStates). */
  #known(method: string, args: readonly unknown[], value: unknown): unknown {
    // The caller's own object: a copy is kept (the caller may change it after).
    if (method === 'create' && value === undefined) this.#remember(isState(args[0]) ? structuredClone(args[0]) : null);
    else if (method === 'remove' || method === 'removeVersioned') this.#knownStates.delete(String(args[0]));
    else if (Array.isArray(value)) {
      if (value.length <= KNOWN_STATES) for (const entry of value) this.#remember(stateIn(entry));
    } else this.#remember(stateIn(value));
    return value;
  }

  /** Keeps `state` (when it is one) as the one known of its id, the most recent KNOWN_STATES at most. */
  #remember(state: unknown): void {
    if (!isState(state)) return;
    this.#knownStates.delete(state.agent_id);
    this.#knownStates.set(state.agent_id, state);
    if (this.#knownStates.size > KNOWN_STATES) this.#knownStates.delete(this.#knownStates.keys().next().value!);
  }

  /** The transaction the calling code runs inside, if any. */
  #current(): Transaction | null {
    return this.#context === null ? this.#tx : (this.#context.storage.getStore() ?? null);
  }

  /** `$lock` on `link`, `work` with its calls on that link, then `$commit` (or `$rollback` when work throws). */
  async #transaction<T>(
    link: RelayLink | null,
    claudeAgentId: string,
    agentType: string,
    work: () => Promise<T>,
  ): Promise<T> {
    if (link === null) return this.#directStore().lockClaudeAgent(claudeAgentId, agentType, work);
    const own = link !== this.#link;
    try {
      const tx: Transaction = { link, lock: [claudeAgentId, agentType], locked: null, lost: null };
      let value: T;
      try {
        if (this.#context === null) {
          this.#tx = tx;
          value = await work();
        } else value = await this.#context.storage.run(tx, work);
      } catch (error) {
        if (tx.lost !== null) return await this.#again(tx.lost, claudeAgentId, agentType, work);
        if (tx.locked !== null) await link.request('$rollback', [], false).catch(() => undefined);
        throw error;
      } finally {
        this.#tx = null;
      }
      if (tx.lost !== null) return await this.#again(tx.lost, claudeAgentId, agentType, work);
      // A work that made no call took no lock: nothing to commit.
      if (tx.locked === null) return value;
      try {
        await tx.locked;
        await link.request('$commit', [], false);
      } catch (error) {
        if (!(error instanceof RelayFault)) throw error;
        this.#goDirect(error);
        throw new SessionError(
          'E_IO',
          `The relay of ${this.location} stopped answering (${error.message}) while committing: whether the Claude ` +
            'agent was attached is unknown, so it is not attached again',
        );
      }
      return value;
    } finally {
      if (own) link.close();
    }
  }

  /** A connection of its own (a transaction's, with `concurrent`). */
  #newLink(): RelayLink {
    return new RelayLink(
      this.#options.place.socket,
      this.#options.store,
      HELLO_MS,
      this.#openedAt + this.#options.totalMs,
      this.#options.transport,
    );
  }

  /** The link to the relay, made on first use; null when there is none to use (and one may have been started). */
  #connect(): RelayLink | null {
    if (this.#link !== undefined) return this.#link;
    const { place } = this.#options;
    if (Buffer.byteLength(place.socket) > MAX_SOCKET_PATH)
      return this.#noRelay(`the relay socket path is longer than ${MAX_SOCKET_PATH} bytes`, false);
    const folder = checkFolder(place.dir);
    if (folder.kind === 'refused') return this.#noRelay(`the relay folder ${folder.why}`, false);
    const socket = folder.kind === 'ok' ? checkSocket(place.socket) : folder;
    if (socket.kind === 'refused') return this.#noRelay(`the relay socket ${socket.why}`, false);
    if (socket.kind === 'absent') return this.#noRelay('no relay is running', true);
    this.#link = this.#newLink();
    this.#route.via = 'relay';
    return this.#link;
  }

  #noRelay(why: string, startable: boolean): null {
    this.#link = null;
    this.#route = { ...this.#route, via: 'direct', why };
    if (startable) this.#startRelay();
    return null;
  }

  /** The relay did not serve this process: the rest goes direct; a relay is started when none listens. */
  #goDirect(fault: RelayFault): void {
    this.#link?.close();
    this.#link = null;
    this.#route = { ...this.#route, via: 'direct', why: fault.message };
    if (fault.startable) this.#startRelay();
  }

  /** Starts a relay in the background for the next processes, unless one is starting (a marker of the last 10 s). */
  #startRelay(): void {
    const { start, place } = this.#options;
    if (start === null) return;
    try {
      if (ensureFolder(place.dir).kind !== 'ok') return;
      if (!markStarting(place.starting)) return;
      start();
      this.#route.started = true;
    } catch {
      // Starting a relay is a favour to the next hook: this one never fails for it.
    }
  }

  /**
   * The relay went away inside the transaction, before its commit: the server rolled it back when the relay's connection
   * dropped (or rolls it back when the relay reads this connection's end), so nothing of it was written: run it again,
   * directly.
   */
  #again<T>(fault: RelayFault, claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T> {
    this.#goDirect(fault);
    return this.#directStore().lockClaudeAgent(claudeAgentId, agentType, work);
  }

  #directStore(): SessionStore & VersionedRows {
    this.#direct ??= this.#options.direct(this.#options.totalMs - (Date.now() - this.#openedAt));
    return this.#direct;
  }

  async #invokeDirect(method: string, args: readonly unknown[]): Promise<unknown> {
    const store = this.#directStore() as unknown as Record<string, unknown>;
    const fn = store[method];
    if (typeof fn !== 'function' || method.startsWith('$'))
      throw new SessionError('E_USAGE', `Expected a method of the store, got \`${method}\``);
    return (fn as (...args: unknown[]) => Promise<unknown>).apply(store, [...args]);
  }
}

/**
 * The relay's client as a SessionStore: RelayStore's own methods, and every other method name forwarded by `call`
 * (see RelayStore), so methods the store gains reach the relay without a change here.
 */
export function openRelayStore(options: RelayStoreOptions): SessionStore & { readonly route: RelayRoute } {
  const store = new RelayStore(options);
  const forwarded = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy(store, {
    get(target, name) {
      if (typeof name !== 'string' || name in target) {
        const value: unknown = Reflect.get(target, name, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      }
      // Not a thenable: a store handed to `await` or returned from an async function is not a promise.
      if (name === 'then') return undefined;
      let method = forwarded.get(name);
      if (method === undefined) {
        method = (...args: unknown[]) => target.call(name, args);
        forwarded.set(name, method);
      }
      return method;
    },
  }) as unknown as SessionStore & { readonly route: RelayRoute };
}

// --- internal ---

/** A value JSON.stringify cannot write (nested too deep), as the stores say it (codec.ts encodeState). */
function tooDeep(method: string): SessionError {
  return new SessionError(
    'E_USAGE',
    `Expected the arguments of \`${method}\` to nest less deeply, got too deep to write`,
  );
}

/** Whether `value` is a session state (what the store's reads answer). */
function isState(value: unknown): value is SessionState {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SessionState).agent_id === 'string' &&
    typeof (value as SessionState).schema_version === 'number' &&
    typeof (value as SessionState).last_updated === 'string'
  );
}

/** The state an answer holds: itself, or the `state` of a listing's entry or of a versioned row. */
function stateIn(value: unknown): unknown {
  return isState(value)
    ? value
    : typeof value === 'object' && value !== null
      ? (value as { state?: unknown }).state
      : undefined;
}

function lostInTransaction(fault: RelayFault): SessionError {
  return new SessionError('E_IO', `The relay stopped answering inside a transaction (${fault.message})`);
}
