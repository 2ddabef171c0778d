import { AsyncResource } from 'node:async_hooks';
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { SessionError, isSessionError } from '../../core/errors';
import { errnoCode } from '../../platform/errno';
import { acquireLock } from '../../platform/lock';
import { PRIVATE_FILE } from '../../platform/private-fs';
import { checkSocket, ensureFolder, type RelayPlace } from './relay-folder';
import {
  clientHelloLine,
  decodeValue,
  encodeValue,
  LineReader,
  errorOf,
  parseLine,
  parseRelayHello,
  RELAY_BUILD,
  RELAY_GREETING,
  RELAY_PROTOCOL,
  type RelayHello,
} from './relay-protocol';

/** A store the relay serves: any object whose methods the clients call by name (the PostgreSQL store). */
export interface RelayBackend {
  now(): Promise<Date>;
  lockClaudeAgent<T>(claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How a relay runs. */
export interface RelayServerOptions {
  readonly place: RelayPlace;
  /** The store it serves: a client's hello must name this URL and schema. */
  readonly url: string;
  readonly schema: string;
  /** The store as shown (URL masked), for `relay status`. */
  readonly location: string;
  /** Opens a store with a client's options (its hello's `store`). */
  readonly open: (options: Readonly<Record<string, unknown>>) => RelayBackend;
  /** It stops after this long without a client. */
  readonly idleMs: number;
  /** One line per event (start, stop, a store's failure). */
  readonly log: (line: string) => void;
  /** Test hook (AGENT_SESSION_TEST_RELAY_PAUSE): stops for good before or after running this call, saying so in the log. */
  readonly pause?: { readonly call: string; readonly when: 'before' | 'after' };
}

/** What `relay status` shows. */
export interface RelayStatus {
  readonly pid: number;
  readonly protocol: number;
  readonly build: string;
  readonly location: string;
  readonly socket: string;
  readonly started_at: string;
  readonly clients_served: number;
  readonly clients_now: number;
  readonly requests: number;
  readonly idle_timeout_seconds: number;
  readonly last_error: string | null;
}

/** Idle stores kept per set of options: the connections the next hooks reuse. */
const IDLE_STORES = 4;
/** How long a stopping relay waits for its clients to finish before it drops them. */
const STOP_GRACE_MS = 5_000;
/** The longest request line a client may send (a state is at most 1 MiB of metadata plus its history). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Store methods never run for a client: they end the store, change its tables, or take a callback. */
const NOT_FOR_CLIENTS: ReadonlySet<string> = new Set([
  'constructor',
  'close',
  'migrate',
  'putRaw',
  'update',
  'removeMany',
  'removeBatch',
  'lockClaudeAgent',
]);

/**
 * Runs the relay of `options.place` until it stops: after `idleMs` without a client, on `$stop`, or on SIGTERM/SIGINT.
 * It first claims the socket under the relay's lock: a relay that answers there already stays (`already_running`);
 * a socket file nothing listens on (a relay that was killed) is replaced.
 * @throws SessionError E_REFUSED when the folder or the socket path is not this user's to use; E_BUSY when another
 *   relay holds the lock; E_IO
 */
export async function runRelay(options: RelayServerOptions): Promise<'stopped' | 'already_running'> {
  const folder = ensureFolder(options.place.dir);
  if (folder.kind !== 'ok')
    throw new SessionError(
      'E_REFUSED',
      `Expected a private relay folder, got ${folder.kind === 'refused' ? folder.why : 'none'}`,
    );
  const claimed = await claimSocket(options.place);
  if (claimed === null) return 'already_running';
  const relay = new Relay(options, claimed.server, claimed.ino);
  return relay.run();
}

// --- internal ---

/** The socket, listened on, or null when a live relay answers there. */
async function claimSocket(place: RelayPlace): Promise<{ server: Server; ino: number } | null> {
  const release = acquireLock(place.lock, { timeoutMs: 3_000, staleMs: 10_000 });
  try {
    const existing = checkSocket(place.socket);
    if (existing.kind === 'refused')
      throw new SessionError('E_REFUSED', `Expected a relay socket, got ${existing.why}`);
    if (existing.kind === 'ok') {
      if (await answers(place.socket)) return null;
      unlinkSync(place.socket);
    }
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(place.socket, () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
    // The folder is already private; the socket is too, whatever the umask.
    chmodSync(place.socket, PRIVATE_FILE);
    return { server, ino: lstatSync(place.socket).ino };
  } finally {
    release();
    try {
      unlinkSync(place.starting);
    } catch {
      // No marker (started by hand) is fine.
    }
  }
}

/** Whether a relay answers on `socket` (any hello within a second). */
function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socket);
    let buffer = '';
    const done = (alive: boolean): void => {
      clearTimeout(timer);
      probe.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => done(false), 1_000);
    probe.on('error', () => done(false));
    probe.on('close', () => done(false));
    probe.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\n');
      if (end !== -1) done(parseRelayHello(buffer.slice(0, end)) !== null);
    });
    probe.write(clientHelloLine({}));
  });
}

/** A running relay: its socket, its clients, its idle stores. */
class Relay {
  readonly #options: RelayServerOptions;
  readonly #server: Server;
  readonly #ino: number;
  readonly #startedAt = new Date();
  readonly #clients = new Set<Client>();
  readonly #idle = new Map<string, RelayBackend[]>();
  #served = 0;
  #requests = 0;
  #lastError: string | null = null;
  #idleTimer: NodeJS.Timeout | null = null;
  #stopping: Promise<void> | null = null;
  #stopped!: (how: 'stopped') => void;

  constructor(options: RelayServerOptions, server: Server, ino: number) {
    this.#options = options;
    this.#server = server;
    this.#ino = ino;
  }

  run(): Promise<'stopped'> {
    const done = new Promise<'stopped'>((resolve) => (this.#stopped = resolve));
    this.#server.on('connection', (socket) => this.#accept(socket));
    this.#server.on('error', (error) => this.noteError(`the relay socket failed: ${error.message}`));
    const onSignal = (): void => void this.stop('a signal');
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    this.#armIdle();
    this.#options.log(`listening on ${this.#options.place.socket} for ${this.#options.location} (pid ${process.pid})`);
    // Warm: the first hook finds a store connected and its schema checked.
    const plain = { url: this.#options.url, schema: this.#options.schema };
    const warm = this.checkout(plain);
    warm.now().then(
      () => this.checkin(plain, warm, false),
      (error: unknown) => {
        this.noteError(errorOf(error).message);
        this.checkin(plain, warm, true);
      },
    );
    return done.finally(() => {
      process.removeListener('SIGTERM', onSignal);
      process.removeListener('SIGINT', onSignal);
    });
  }

  /** The hello a client must send: this protocol, this build, this URL and schema. */
  accepts(hello: Record<string, unknown> | null): string | null {
    if (hello === null || hello.relay !== RELAY_GREETING) return 'not a hello of this relay';
    if (hello.protocol !== RELAY_PROTOCOL || hello.build !== RELAY_BUILD)
      return `this relay speaks protocol ${RELAY_PROTOCOL} of build ${RELAY_BUILD}`;
    const store = hello.store as Record<string, unknown> | undefined;
    if (typeof store !== 'object' || store === null || Array.isArray(store)) return 'no store named';
    if (store.url !== this.#options.url || store.schema !== this.#options.schema)
      return 'this relay serves another database or schema';
    return null;
  }

  hello(refused?: string): string {
    const hello: RelayHello = {
      relay: RELAY_GREETING,
      protocol: RELAY_PROTOCOL,
      build: RELAY_BUILD,
      pid: process.pid,
      ...(refused === undefined ? {} : { refused }),
    };
    return `${JSON.stringify(hello)}\n`;
  }

  get pause(): RelayServerOptions['pause'] {
    return this.#options.pause;
  }

  log(line: string): void {
    this.#options.log(line);
  }

  counted(): void {
    this.#requests++;
  }

  noteError(message: string): void {
    this.#lastError = `${new Date().toISOString()} ${message}`;
    this.#options.log(`error: ${message}`);
  }

  /** What `relay status` shows, as asked by a client (not counted among the clients). */
  status(): RelayStatus {
    return {
      pid: process.pid,
      protocol: RELAY_PROTOCOL,
      build: RELAY_BUILD,
      location: this.#options.location,
      socket: this.#options.place.socket,
      started_at: this.#startedAt.toISOString(),
      clients_served: this.#served - 1,
      clients_now: this.#clients.size - 1,
      requests: this.#requests,
      idle_timeout_seconds: this.#options.idleMs / 1000,
      last_error: this.#lastError,
    };
  }

  /** An idle store for these options, or a new one. */
  checkout(options: Readonly<Record<string, unknown>>): RelayBackend {
    const idle = this.#idle.get(JSON.stringify(options));
    return idle?.pop() ?? this.#options.open(options);
  }

  /** A store back from a client: kept for the next one, unless it failed (its connection may be gone) or enough are. */
  checkin(options: Readonly<Record<string, unknown>>, store: RelayBackend, failed: boolean): void {
    const key = JSON.stringify(options);
    const idle = this.#idle.get(key) ?? [];
    if (failed || this.#stopping !== null || idle.length >= IDLE_STORES) {
      store.close().catch(() => undefined);
      return;
    }
    idle.push(store);
    this.#idle.set(key, idle);
  }

  /** Stops: no new client, the socket removed (when it is still this relay's), clients given a grace, stores closed. */
  stop(why: string): Promise<void> {
    this.#stopping ??= (async () => {
      this.#options.log(`stopping (${why})`);
      if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
      this.#server.close();
      try {
        // Another relay may have replaced a socket it found dead: that one is not this relay's to remove.
        if (lstatSync(this.#options.place.socket).ino === this.#ino) unlinkSync(this.#options.place.socket);
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') this.#options.log(`the socket was not removed: ${String(error)}`);
      }
      const deadline = Date.now() + STOP_GRACE_MS;
      while (this.#clients.size > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
      for (const client of this.#clients) client.drop();
      await Promise.all([...this.#idle.values()].flat().map((store) => store.close().catch(() => undefined)));
      this.#idle.clear();
      this.#options.log('stopped');
      this.#stopped('stopped');
    })();
    return this.#stopping;
  }

  ended(client: Client): void {
    this.#clients.delete(client);
    if (this.#clients.size === 0) this.#armIdle();
  }

  #accept(socket: Socket): void {
    if (this.#stopping !== null) {
      socket.destroy();
      return;
    }
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    this.#served++;
    const client = new Client(this, socket);
    this.#clients.add(client);
    void client.run();
  }

  #armIdle(): void {
    if (this.#stopping !== null) return;
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => void this.stop('idle'), this.#options.idleMs);
  }
}

/** A transaction a client holds (`$lock` … `$commit`/`$rollback`). */
interface Transaction {
  /** Runs a call inside the transaction (where the store's own calls join it). */
  readonly run: <T>(work: () => Promise<T>) => Promise<T>;
  readonly commit: () => void;
  readonly rollback: (reason: Error) => void;
  /** Settles when the transaction has ended (committed, or rolled back with its error). */
  readonly done: Promise<void>;
  /** Why it ended early (a bound ran out, the connection dropped), when it did. */
  failed: unknown;
}

/** Ends a transaction without committing. */
class Rollback extends Error {}

/** One client's connection: its hello, then its requests one at a time, in order. */
class Client {
  readonly #relay: Relay;
  readonly #socket: Socket;
  readonly #reader = new LineReader(MAX_LINE_BYTES);
  readonly #lines: string[] = [];
  #waiting: ((line: string | null) => void) | null = null;
  #closed = false;
  #options: Readonly<Record<string, unknown>> | null = null;
  #store: RelayBackend | null = null;
  #failed = false;
  #tx: Transaction | null = null;
  /** Why the last `$lock` failed: the answer of the calls sent as its transaction's right behind it. */
  #lockFailure: unknown = null;

  constructor(relay: Relay, socket: Socket) {
    this.#relay = relay;
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#read(chunk));
    socket.on('error', () => this.#close());
    socket.on('close', () => this.#close());
  }

  async run(): Promise<void> {
    try {
      const first = await this.#next();
      if (first === null) return;
      const hello = parseLine(first);
      const refused = this.#relay.accepts(hello);
      if (refused !== null) {
        // Nothing sent behind a refused hello runs.
        this.#socket.end(this.#relay.hello(refused));
        return;
      }
      this.#options = hello!.store as Record<string, unknown>;
      this.#socket.write(this.#relay.hello());
      for (let line = await this.#next(); line !== null; line = await this.#next()) await this.#request(line);
    } catch (error) {
      this.#relay.noteError(`a client's connection failed: ${errorOf(error).message}`);
    } finally {
      if (this.#tx !== null) {
        // The client went away inside its transaction: rolled back, never committed.
        this.#tx.rollback(new Rollback('the client went away'));
        await this.#tx.done.catch(() => undefined);
        this.#tx = null;
      }
      if (this.#store !== null) this.#relay.checkin(this.#options!, this.#store, this.#failed);
      this.#socket.destroy();
      this.#relay.ended(this);
    }
  }

  /** Ends the connection now (a stopping relay's grace is over). */
  drop(): void {
    this.#socket.destroy();
  }

  // --- internal ---

  async #request(line: string): Promise<void> {
    const request = parseLine(line);
    const id = request?.id;
    if (
      request === null ||
      typeof id !== 'number' ||
      typeof request.call !== 'string' ||
      !Array.isArray(request.args)
    ) {
      this.#socket.destroy();
      return;
    }
    this.#relay.counted();
    const call = request.call;
    let args: unknown[];
    try {
      args = decodeValue(request.args, request.tagged === 1) as unknown[];
    } catch (error) {
      return this.#answer(id, undefined, error);
    }
    if (call === '$status') return this.#answer(id, this.#relay.status());
    if (call === '$stop') {
      this.#answer(id, undefined);
      void this.#relay.stop('asked');
      return;
    }
    if (call === '$lock') return this.#tx === null ? this.#begin(id, args) : this.#inside(id, call, args);
    if (call === '$commit' || call === '$rollback') return this.#end(id, call);
    if (this.#tx !== null) return this.#inside(id, call, args);
    // A call of a transaction that could not be opened: never run outside one.
    if (request.tx === 1)
      return this.#answer(
        id,
        undefined,
        this.#lockFailure ?? new SessionError('E_USAGE', `Expected \`${call}\` inside a transaction, and none is open`),
      );
    return this.#perform(id, call, args);
  }

  /** `$lock` outside a transaction: the store's lockClaudeAgent, held open until `$commit` or `$rollback`. */
  async #begin(id: number, args: unknown[]): Promise<void> {
    const [claudeAgentId, agentType] = args;
    if (typeof claudeAgentId !== 'string' || typeof agentType !== 'string')
      return this.#answer(
        id,
        undefined,
        new SessionError('E_USAGE', 'Expected `$lock` to name a Claude agent and type'),
      );
    const store = this.#backend();
    let opened!: (tx: Omit<Transaction, 'done' | 'failed'>) => void;
    const isOpen = new Promise<Omit<Transaction, 'done' | 'failed'>>((resolve) => (opened = resolve));
    const done = store.lockClaudeAgent(
      claudeAgentId,
      agentType,
      () =>
        new Promise<void>((commit, rollback) =>
          // Bound here: a call run through it joins this transaction (the store finds it in its async context).
          opened({ run: AsyncResource.bind(<T>(work: () => Promise<T>) => work()), commit: () => commit(), rollback }),
        ),
    );
    const first = await Promise.race([isOpen, done.then(() => null)]).catch((error: unknown) => ({ error }));
    if (first === null || 'error' in first) {
      const error = first === null ? new SessionError('E_IO', 'The transaction ended before it began') : first.error;
      this.#noteFailure(error);
      this.#lockFailure = error;
      return this.#answer(id, undefined, error);
    }
    this.#lockFailure = null;
    const tx: Transaction = { ...first, done, failed: undefined };
    // A bound that runs out while the client works ends it: its next calls get that error, its commit too.
    done.catch((error: unknown) => {
      if (!(error instanceof Rollback)) tx.failed = error;
    });
    this.#tx = tx;
    this.#answer(id, undefined);
  }

  /** A call inside the transaction (a nested `$lock` takes its locks there again: they are re-entrant). */
  async #inside(id: number, call: string, args: unknown[]): Promise<void> {
    const tx = this.#tx!;
    if (tx.failed !== undefined) return this.#answer(id, undefined, tx.failed);
    if (call === '$lock') {
      const [claudeAgentId, agentType] = args as [string, string];
      try {
        await tx.run(() => this.#backend().lockClaudeAgent(claudeAgentId, agentType, async () => undefined));
        return this.#answer(id, undefined);
      } catch (error) {
        return this.#answer(id, undefined, error);
      }
    }
    return tx.run(() => this.#perform(id, call, args));
  }

  async #end(id: number, call: '$commit' | '$rollback'): Promise<void> {
    const tx = this.#tx;
    if (tx === null)
      return this.#answer(id, undefined, new SessionError('E_USAGE', `Expected a transaction to end with \`${call}\``));
    this.#tx = null;
    if (call === '$rollback') {
      tx.rollback(new Rollback('rolled back by the client'));
      await tx.done.catch(() => undefined);
      return this.#answer(id, undefined);
    }
    await this.#pauseAt(call, 'before');
    tx.commit();
    try {
      await tx.done;
      await this.#pauseAt(call, 'after');
      this.#answer(id, undefined);
    } catch (error) {
      this.#noteFailure(error);
      this.#answer(id, undefined, error);
    }
  }

  /** One store method, by name: only methods of the store's own class, never those NOT_FOR_CLIENTS. */
  async #perform(id: number, call: string, args: unknown[]): Promise<void> {
    const store = this.#backend();
    const proto = Object.getPrototypeOf(store) as object;
    const method = (store as unknown as Record<string, unknown>)[call];
    if (NOT_FOR_CLIENTS.has(call) || !Object.hasOwn(proto, call) || typeof method !== 'function')
      return this.#answer(
        id,
        undefined,
        new SessionError('E_USAGE', `Expected a method of the store, got \`${call}\``),
      );
    await this.#pauseAt(call, 'before');
    let value: unknown;
    try {
      value = await (method as (...args: unknown[]) => Promise<unknown>).apply(store, args);
    } catch (error) {
      this.#noteFailure(error);
      return this.#answer(id, undefined, error);
    }
    await this.#pauseAt(call, 'after');
    this.#answer(id, value);
  }

  /** Test hook (RelayServerOptions.pause): at that call, says where it stopped, then waits for the test's SIGKILL. */
  async #pauseAt(call: string, when: 'before' | 'after'): Promise<void> {
    const pause = this.#relay.pause;
    if (pause?.call !== call || pause.when !== when) return;
    this.#relay.log(`paused ${when} ${call}`);
    await new Promise<never>(() => undefined);
  }

  #backend(): RelayBackend {
    this.#store ??= this.#relay.checkout(this.#options!);
    return this.#store;
  }

  /** A store that failed with E_IO (or a bug) is not given to the next client: its connection may be gone. */
  #noteFailure(error: unknown): void {
    if (isSessionError(error) && error.code !== 'E_IO') return;
    this.#failed = true;
    this.#relay.noteError(errorOf(error).message);
  }

  #answer(id: number, value: unknown, error?: unknown): void {
    if (this.#closed) return;
    let line: string;
    if (error !== undefined) {
      line = `{"id":${id},"error":${JSON.stringify(errorOf(error))}}\n`;
    } else if (value === undefined) {
      line = `{"id":${id}}\n`;
    } else {
      const { json, tagged } = encodeValue(value);
      line = `{"id":${id}${tagged ? ',"tagged":1' : ''},"ok":${json}}\n`;
    }
    this.#socket.write(line);
  }

  #read(chunk: Buffer): void {
    const within = this.#reader.read(chunk, (line) => {
      this.#push(line);
      return true;
    });
    if (!within) this.#socket.destroy();
  }

  #push(line: string): void {
    if (this.#waiting !== null) {
      const waiting = this.#waiting;
      this.#waiting = null;
      waiting(line);
    } else this.#lines.push(line);
  }

  /** The next line, or null once the client has gone (lines it sent before are not run then: it stopped waiting). */
  #next(): Promise<string | null> {
    if (this.#closed) return Promise.resolve(null);
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#lines.length = 0;
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.(null);
  }
}
