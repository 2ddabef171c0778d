import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import postgres, { type Sql, type TransactionSql } from 'postgres';
import { SessionError, isSessionError } from '../../core/errors';
import { NEWEST_SCHEMA_VERSION } from '../../core/schema-version';
import { assertValidId } from '../../core/ids';
import type { SessionState } from '../../core/state';
import { KeyedSerializer } from '../../platform/serial';
import { decodeState, encodeState, namedProject } from '../codec';
import {
  answerQuery,
  inScope,
  isAged,
  type AgedEntry,
  type AgedQuery,
  type ListPage,
  type ListQuery,
  type ListedSession,
  type ListScope,
  type RemovalOutcome,
  type SessionStore,
  type StatsAnswer,
  type StatsQuery,
} from '../../service/store';
import { emptySums, mergeSums, type StatsSums, type StatsTally, type TallyGroup } from '../../core/views/stats-facts';
import { LATEST_VERSION, migrate, newerThanBinary, notMigrated, quoteSchema, type MigrationResult } from './schema';
import { DEFAULT_SCHEMA, WAIT_LIMITS, type WaitLimits } from '../../core/database';
import { maskDatabaseUrl, parseDatabaseUrl, type DatabaseAddress } from '../../core/database-url';
import { Connector, type BackendKey } from './connector';
import { removeByVersion, updateByVersion, type VersionedRow, type VersionedRows } from '../versioned';

/** How a PostgreSQL store is reached. */
export interface PgStoreOptions {
  /**
   * A libpq `postgres://…` URL (core/database-url.ts): several hosts, unix-socket folders; `sslmode` and the other
   * connection parameters in it are honoured by the driver.
   */
  readonly url: string;
  /** The schema holding the tables (default `agent_session`), checked by assertSchemaName. */
  readonly schema?: string;
  /** How long the database may keep the store waiting (default: the commands', WAIT_LIMITS.command). */
  readonly limits?: WaitLimits;
  /**
   * How long the schema check holds (default: for the store's life). A long-lived process (the relay) checks again
   * after this long, so a schema migrated by a newer version meanwhile is refused as a new process would refuse it.
   */
  readonly recheckMs?: number;
}

/** How long an attach waits for the other attaches of its Claude agent or agent type (transaction-local). */
const LOCK_TIMEOUT = '10s';
/** The server's clock is read again after this long (it is otherwise the first reading plus monotonic time). */
const CLOCK_REFRESH_MS = 60_000;
/** The memory `stats`' sorts may use (its medians over a million sessions), for its transaction only. */
const STATS_WORK_MEM = '64MB';
/** Sessions judged and removed per transaction by removeBatch (cleanup). */
const BATCH = 500;
/**
 * How long a cancel request may take to be sent after a wait ran out (connector.ts cancel): a live server takes one in
 * milliseconds; one the network lost mid-way must not hold a hook past its bound for another connect timeout.
 */
const CANCEL_MS = 1_000;
/** Rows fetched at first when looking for the newest valid session (corrupt rows are skipped in code). */
const FIRST_BATCH = 4;

type Db = Sql | TransactionSql;
type Row = Record<string, unknown>;

/** One driver client and how it connects. */
interface Client {
  readonly sql: Sql;
  readonly connector: Connector;
  /** Whether `sql` is inside a transaction now (the main client only; see the class comment). */
  inTransaction: boolean;
}

/** A statement sent through the driver: its backend's cancel key once the driver has sent it (`state`). */
type SentQuery = Promise<unknown> & { readonly state?: Partial<BackendKey> };

/**
 * Sessions in a PostgreSQL table (schema.ts): one row per session, the state as `jsonb` with indexed copies of the
 * fields the lookups need. Shared by processes on any machine, so:
 * - every write is a compare-and-swap on the row's `version` (read, `change`, `UPDATE … WHERE version = $v`), retried
 *   on conflict and bounded (E_BUSY); create is `INSERT … ON CONFLICT DO NOTHING` (E_DUPLICATE): nothing is lost or
 *   overwritten, whatever runs at once;
 * - `lockClaudeAgent` is one transaction holding two transaction-level advisory locks, and the store's methods called
 *   inside its `work` run on that transaction (the one connection is the transaction's until it ends);
 * - `now()` is the database's clock, so machines whose clocks disagree agree on "idle for 30 minutes".
 * One connection per process (`max: 1`), no prepared statements (PgBouncer in transaction mode works), nothing set on
 * the session. Only while that connection holds a transaction do other callers of the same process (a library running
 * attaches side by side) get connections of their own (`#spare`, made on first need): queued behind the transaction,
 * a caller it waits for would wait for ever. A hook or a command, one step at a time, never opens a second one.
 * Every wait for the database is bounded (`limits`): a statement or transaction that runs out of time is cancelled on
 * the server (a lock wait ends there too), the connections are dropped (the next call opens new ones), and the caller
 * gets E_IO; connecting is the Connector's (connector.ts), which never retries in a storm.
 * It has no `maintenance` (SessionStore): the file-system notions (leftovers, entries not ours, a linked root) have no
 * meaning here, as the server rolls back a killed writer's transaction and a table holds only the rows written to it.
 */
export class PgStore implements SessionStore, VersionedRows {
  readonly location: string;
  readonly schema: string;
  readonly #address: DatabaseAddress;
  readonly #limits: WaitLimits;
  /** The connect bound: the limits', or the URL's `connect_timeout` when shorter. */
  readonly #connectMs: number;
  /** When the store was opened (performance.now()), for `limits.totalMs`. */
  readonly #openedAt = performance.now();
  /** The process's connection. */
  #main: Client;
  /** Connections for callers that come while `#main` holds a transaction (see the class comment); made on first need. */
  #spare: Client | null = null;
  /** The statements sent and not yet answered, with their client: cancelled when a wait runs out. */
  readonly #inFlight = new Map<SentQuery, Client>();
  /** Cancel requests under way (close waits for them). */
  readonly #cancels: Promise<void>[] = [];
  readonly #q: Queries;
  /** The attaches of this process, one at a time per Claude agent id and per agent type (see lockClaudeAgent). */
  readonly #serial = new KeyedSerializer();
  /** The transaction of the lockClaudeAgent (or other #transaction) call this code runs inside, if any. */
  readonly #tx = new AsyncLocalStorage<{ readonly tx: TransactionSql; readonly client: Client }>();
  #ready: Promise<void> | null = null;
  /** When the schema was last checked (performance.now()). */
  #checkedAt = 0;
  readonly #recheckMs: number;
  /** The server's clock at a monotonic instant (see now). */
  #clock: { readonly server: number; readonly at: number } | null = null;

  constructor(options: PgStoreOptions) {
    this.schema = options.schema ?? DEFAULT_SCHEMA;
    this.location = `${maskDatabaseUrl(options.url)} (schema ${this.schema})`;
    this.#address = parseDatabaseUrl(options.url, 'the database URL');
    this.#limits = options.limits ?? WAIT_LIMITS.command;
    this.#recheckMs = options.recheckMs ?? Infinity;
    const urlTimeout = this.#address.connectTimeoutSeconds;
    this.#connectMs = Math.min(this.#limits.connectMs, urlTimeout === undefined ? Infinity : urlTimeout * 1000);
    this.#main = this.#client(1);
    this.#q = queries(quoteSchema(this.schema));
  }

  /** Creates or upgrades the tables (see schema.ts), in one transaction. */
  async migrate(): Promise<MigrationResult> {
    return this.#transaction(() => migrate((text, params) => this.#query(text, params), this.schema));
  }

  /** The database's clock: read once per process (with the schema check), then advanced by monotonic time. */
  async now(): Promise<Date> {
    await this.#checked();
    if (this.#clock === null || performance.now() - this.#clock.at > CLOCK_REFRESH_MS) {
      const [row] = await this.#query('SELECT clock_timestamp() AS now', []);
      this.#clock = { server: (row!.now as Date).getTime(), at: performance.now() };
    }
    return new Date(this.#clock.server + (performance.now() - this.#clock.at));
  }

  /** Ends the connections (waits for queries under way, and for the cancel requests to be sent: CANCEL_MS at most). */
  async close(): Promise<void> {
    const clients = [this.#main, this.#spare].filter((client) => client !== null);
    await Promise.all(clients.map((client) => client.sql.end({ timeout: 5 })));
    // Whatever the driver's goodbye left open (a server that does not answer it) ends now.
    for (const client of clients) client.connector.shutDown();
    await Promise.all(this.#cancels);
  }

  async read(id: string): Promise<SessionState | null> {
    assertValidId(id);
    await this.#checked();
    const [row] = await this.#query(this.#q.read, [id]);
    return row === undefined ? null : decode(id, row.state as string);
  }

  async create(state: SessionState): Promise<void> {
    const id = assertValidId(state.agent_id);
    const text = encodeState(state);
    await this.#checked();
    const rows = await this.#query(this.#q.create, [id, ...columns(state), text]);
    if (rows.length === 0) throw duplicate(id);
  }

  async update(id: string, change: (state: SessionState) => SessionState): Promise<SessionState> {
    return updateByVersion(this, id, change);
  }

  /**
   * The row with its version (VersionedRows, for update's compare-and-swap), or null when absent.
   * @param lock inside a transaction (`exclusive`): `FOR UPDATE`, the row held until it ends
   */
  async readVersioned(id: string, lock = false): Promise<VersionedRow | null> {
    assertValidId(id);
    await this.#checked();
    const [row] = await this.#query(lock ? `${this.#q.readVersion} FOR UPDATE` : this.#q.readVersion, [id]);
    if (row === undefined) return null;
    let state: SessionState | null = null;
    let problem: string | null = null;
    try {
      state = decode(id, row.state as string);
    } catch (error) {
      if (!isSessionError(error, 'E_CORRUPT')) throw error;
      problem = error.message;
    }
    return { version: row.version as string, state, problem, writtenAt: row.written_at as Date };
  }

  /** Writes `state` when the row still has `version` (its indexed columns and the Claude agent's pointer with it). */
  async writeVersioned(id: string, version: string, state: SessionState): Promise<boolean> {
    assertValidId(id);
    const text = encodeState(state);
    // What is written must be a session of this id: a caller's state is checked as a read would check it.
    const next = decode(id, text);
    await this.#checked();
    return (await this.#query(this.#q.update, [id, version, ...columns(next), text])).length === 1;
  }

  /**
   * Writes `state` when the stored state is still `expected` (compared as jsonb): a compare-and-swap on content, for a
   * writer that holds the state it read (the relay's client, whose update then needs no read first).
   * @returns false when the row changed since (or went): read it again
   */
  async writeIfUnchanged(id: string, expected: SessionState, state: SessionState): Promise<boolean> {
    assertValidId(id);
    const text = encodeState(state);
    const next = decode(id, text);
    await this.#checked();
    return (await this.#query(this.#q.updateIfState, [id, encodeState(expected), ...columns(next), text])).length === 1;
  }

  /** Removes the row when it still has `version`. */
  async removeVersioned(id: string, version: string): Promise<boolean> {
    assertValidId(id);
    await this.#checked();
    return (await this.#query(this.#q.removeVersion, [id, version])).length === 1;
  }

  async newestOf(project: string, agentName: string, notAfter = Infinity): Promise<SessionState | null> {
    await this.#checked();
    const mine = (state: SessionState): boolean =>
      state.agent_name === agentName && state.project === project && !(Date.parse(state.last_updated) > notAfter);
    return this.#firstValid(this.#q.newestOf, [project, agentName, bound(notAfter)], mine);
  }

  async findByClaudeAgent(project: string, claudeAgentId: string): Promise<SessionState | null> {
    await this.#checked();
    const linked = (state: SessionState): boolean =>
      state.claude?.agent_id === claudeAgentId && state.project === project;
    return this.#firstValid(this.#q.byClaudeAgent, [claudeAgentId, project], linked);
  }

  /**
   * The pointer (`claude_agents`, one per Claude agent id whatever the project) when it names a session of `project`,
   * else the project's session linked to the agent now.
   */
  async attachedTo(project: string, claudeAgentId: string): Promise<SessionState | null> {
    await this.#checked();
    const [row] = await this.#query(this.#q.attachedTo, [claudeAgentId, project]);
    const pointed = row === undefined ? null : decodeQuiet(row.id as string, row.state as string);
    return pointed?.claude !== undefined && pointed.project === project
      ? pointed
      : this.findByClaudeAgent(project, claudeAgentId);
  }

  /**
   * Runs `work` in one transaction holding `pg_advisory_xact_lock` on the Claude agent id, then on the agent type
   * (always this order, as the file store's lock files), each waiting at most LOCK_TIMEOUT (E_BUSY). The store's
   * methods called inside `work` run on this transaction; its writes commit when `work` ends, or none do.
   */
  async lockClaudeAgent<T>(claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T> {
    await this.#checked();
    // Already inside: the transaction holds its locks (advisory locks are re-entrant within one session).
    if (this.#tx.getStore() !== undefined) return this.#lockedWork(claudeAgentId, agentType, work);
    // In this process first (callers of one key run in the order they came, without a connection each while they
    // wait), then among processes (the advisory locks).
    const keys = agentType === '' ? [`agent:${claudeAgentId}`] : [`agent:${claudeAgentId}`, `type:${agentType}`];
    return this.#serial.run(keys, () => this.#transaction(() => this.#lockedWork(claudeAgentId, agentType, work)));
  }

  /**
   * Runs `work` in one transaction (VersionedRows.exclusive): its `readVersioned(id, true)` holds the row, waiting at
   * most LOCK_TIMEOUT for it (E_BUSY), so its write cannot lose the race.
   */
  async exclusive<T>(id: string, work: () => Promise<T>): Promise<T> {
    await this.#checked();
    if (this.#tx.getStore() !== undefined) return work();
    return this.#serial.run([`session:${id}`], () =>
      this.#transaction(async () => {
        await this.#query(`SELECT set_config('lock_timeout', $1, true)`, [LOCK_TIMEOUT]);
        return work();
      }),
    );
  }

  async newestPerAgent(project: string, notAfter = Infinity): Promise<SessionState[]> {
    await this.#checked();
    const rows = await this.#query(this.#q.newestPerAgent, [project, bound(notAfter)]);
    const found = new Map<string, SessionState | null>();
    for (const row of rows) {
      const agent = row.agent_name as string;
      if (found.get(agent)) continue;
      const state = decodeQuiet(row.id as string, row.state as string);
      const fits =
        state !== null &&
        state.agent_name === agent &&
        state.project === project &&
        !(Date.parse(state.last_updated) > notAfter);
      found.set(agent, fits ? state : null);
    }
    const newest: SessionState[] = [];
    for (const [agent, state] of found) {
      // Every candidate fetched was corrupt: look further down this agent's sessions.
      const answer = state ?? (await this.newestOf(project, agent, notAfter));
      if (answer !== null) newest.push(answer);
    }
    return newest;
  }

  /**
   * See SessionStore.query: filtered, ordered and limited in SQL (`ORDER BY last_activity DESC … LIMIT`, on the
   * `sessions_by_age` index), so a page of a store of any size reads that page. Rows whose columns are empty (rows no
   * version of ours wrote whole: corrupt) are fetched too, and answered as corrupt.
   */
  async query(scope: ListScope | undefined, query: ListQuery): Promise<ListedSession[]> {
    await this.#checked();
    const rows = await this.#query(this.#q.query, [
      scope?.project ?? null,
      query.phases === undefined ? null : JSON.stringify(query.phases),
      query.agent ?? null,
      query.limit ?? null,
      scope?.unassigned === true,
    ]);
    const listed = rows.map(listedRow);
    return answerQuery(
      listed.filter((entry) => inScope(entry, scope)),
      query,
    );
  }

  /** See SessionStore.page: the query, and a count of the same rows on the same indexes. */
  async page(scope: ListScope | undefined, query: ListQuery): Promise<ListPage> {
    const entries = await this.query(scope, query);
    const [row] = await this.#query(this.#q.count, [
      scope?.project ?? null,
      query.phases === undefined ? null : JSON.stringify(query.phases),
      query.agent ?? null,
      scope?.unassigned === true,
    ]);
    return { entries, total: row!.n as number };
  }

  /**
   * See SessionStore.stats: summed and medians taken in SQL over `session_facts` (kept by a trigger: schema.ts), per
   * project, agent and error count; only the live sessions' states and the rows no version wrote whole are read.
   */
  async stats(scope: ListScope | undefined, query: StatsQuery): Promise<StatsAnswer> {
    await this.#checked();
    const params = [
      scope?.project ?? null,
      scope?.unassigned === true,
      query.agent ?? null,
      query.since === undefined ? null : query.since.toISOString(),
    ];
    // One transaction: its sorts (the medians of a million sessions) may use more memory than a statement's default.
    const { sums, durations, waits, live } = await this.#transaction(async () => {
      await this.#query(`SELECT set_config('work_mem', $1, true)`, [STATS_WORK_MEM]);
      return {
        sums: await this.#query(this.#q.statsSums, params),
        durations: await this.#query(this.#q.statsDurations, params),
        waits: await this.#query(this.#q.statsWaits, params),
        live: await this.#query(this.#q.statsLive, [...params, query.activeSince.toISOString()]),
      };
    });
    const unwritten = await this.#query(this.#q.unwritten, []);
    return {
      tally: tallyOfRows(sums, durations, waits),
      live: live.flatMap((row) => {
        const state = decodeQuiet(row.id as string, row.state as string);
        return state === null ? [] : [state];
      }),
      corrupt: unwritten.map(listedRow).filter((entry) => entry.kind === 'corrupt' && inScope(entry, scope)),
    };
  }

  /**
   * See SessionStore.aged: on the indexes of last activity (a project's, or the store's). No state is parsed: a row is
   * taken as valid when its document is plausibly one of ours (counted in session_facts, of a version this binary
   * reads, its typed fields of their types); the others, and the rows no version wrote whole, are read and judged as
   * `list` judges them (corrupt ones by the time of their last write).
   */
  async aged(scope: ListScope | undefined, query: AgedQuery): Promise<AgedEntry[]> {
    await this.#checked();
    const rows = await this.#query(this.#q.aged, [
      scope?.project ?? null,
      scope?.unassigned === true,
      query.before.toISOString(),
      query.after.toISOString(),
      NEWEST_SCHEMA_VERSION,
    ]);
    const aged: AgedEntry[] = [];
    const doubtful: string[] = [];
    for (const row of rows) {
      if (row.plausible === true)
        aged.push({ kind: 'valid', id: row.id as string, last_updated: (row.last_activity as Date).toISOString() });
      else doubtful.push(row.id as string);
    }
    const judged = doubtful.length === 0 ? [] : await this.#query(this.#q.readMany, [JSON.stringify(doubtful)]);
    for (const row of [...judged, ...(await this.#query(this.#q.unwritten, []))]) {
      const entry = listedRow(row);
      if (!inScope(entry, scope)) continue;
      if (entry.kind === 'corrupt') aged.push(entry);
      else if (isAged(entry.state.last_updated, query))
        aged.push({ kind: 'valid', id: entry.id, last_updated: entry.state.last_updated });
    }
    return aged;
  }

  async idsContaining(part: string, limit: number): Promise<string[]> {
    await this.#checked();
    const rows = await this.#query(this.#q.idsContaining, [part, limit, part.replace(/[\\%_]/g, '\\$&')]);
    const ids = rows.map((row) => row.id as string);
    return ids.includes(part) ? [part] : ids;
  }

  /**
   * Every row, or those of a scope: the project's rows and those of no project (an unassigned row, or one whose project
   * could not be read: corrupt rows are in every scope, as the other stores' corrupt entries are), unassigned valid
   * ones kept only when the scope asks for them.
   */
  async list(scope?: ListScope): Promise<ListedSession[]> {
    await this.#checked();
    const rows =
      scope === undefined
        ? await this.#query(this.#q.list, [])
        : await this.#query(this.#q.listProject, [scope.project]);
    const listed = rows.map(listedRow);
    return scope === undefined ? listed : listed.filter((entry) => inScope(entry, scope));
  }

  /**
   * Removes a session when `shouldRemove` agrees on the row as it is when removed: the DELETE names the version that
   * was judged, so a write in between makes it judge again (a session touched while cleanup runs is kept).
   */
  async remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<boolean> {
    assertValidId(id);
    await this.#checked();
    if (shouldRemove === undefined) return (await this.#query(this.#q.remove, [id])).length === 1;
    return removeByVersion(this, id, shouldRemove);
  }

  /**
   * Removes, in one transaction per batch of BATCH ids, the sessions among `ids` that `shouldRemove` agrees on as they
   * are now: the rows are locked (`FOR UPDATE SKIP LOCKED`), judged, and deleted together. A row another writer holds
   * at that moment is skipped (it is being written: not stale), as is one already gone.
   * @returns the ids removed
   */
  async removeBatch(
    ids: readonly string[],
    shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean,
  ): Promise<string[]> {
    ids.forEach((id) => assertValidId(id));
    await this.#checked();
    const removed: string[] = [];
    for (let start = 0; start < ids.length; start += BATCH) {
      const batch = ids.slice(start, start + BATCH);
      const work = async (): Promise<void> => {
        // The ids as one JSON text: no array type to describe (the driver fetches no types).
        const rows = await this.#query(this.#q.lockBatch, [JSON.stringify(batch)]);
        const doomed = rows
          .filter((row) => shouldRemove(decodeQuiet(row.id as string, row.state as string), row.written_at as Date))
          .map((row) => row.id as string);
        if (doomed.length > 0)
          for (const row of await this.#query(this.#q.removeBatch, [JSON.stringify(doomed)]))
            removed.push(row.id as string);
      };
      if (this.#tx.getStore() !== undefined) await work();
      else await this.#transaction(work);
    }
    return removed;
  }

  /** removeBatch per batch: a batch that fails (busy, unreachable) is the error of each of its ids. */
  async removeMany(
    ids: readonly string[],
    shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean,
  ): Promise<RemovalOutcome[]> {
    const outcomes: RemovalOutcome[] = [];
    for (let start = 0; start < ids.length; start += BATCH) {
      const batch = ids.slice(start, start + BATCH);
      try {
        const removed = new Set(await this.removeBatch(batch, shouldRemove));
        outcomes.push(...batch.map((id) => ({ id, removed: removed.has(id) })));
      } catch (error) {
        if (!isSessionError(error, 'E_BUSY') && !isSessionError(error, 'E_IO')) throw error;
        outcomes.push(...batch.map((id) => ({ id, error })));
      }
    }
    return outcomes;
  }

  /**
   * Test hook: stores `json` (a JSON text PostgreSQL accepts) as the session's document as is, creating the row when
   * absent, so rows no agent-session wrote (an edit by hand, a newer version's) can be planted.
   */
  async putRaw(id: string, json: string, modifiedAt?: Date): Promise<void> {
    await this.#query(this.#q.putRaw, [assertValidId(id), json, modifiedAt ?? null]);
  }

  // --- internal ---

  async #lockedWork<T>(claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T> {
    await this.#query(`SELECT set_config('lock_timeout', $1, true)`, [LOCK_TIMEOUT]);
    await this.#query(this.#q.lock, [`${this.schema}/agent/${claudeAgentId}`]);
    if (agentType !== '') await this.#query(this.#q.lock, [`${this.schema}/type/${agentType}`]);
    return work();
  }

  /** The first row of `query` whose state decodes and passes `fits`, fetching more rows while all fail. */
  async #firstValid(
    query: string,
    params: readonly unknown[],
    fits: (state: SessionState) => boolean,
  ): Promise<SessionState | null> {
    for (let limit = FIRST_BATCH; ; limit *= 8) {
      const rows = await this.#query(query, [...params, limit]);
      for (const row of rows) {
        const state = decodeQuiet(row.id as string, row.state as string);
        if (state !== null && fits(state)) return state;
      }
      if (rows.length < limit) return null;
    }
  }

  /** Checks once per process that the schema is there and of this version (hooks never migrate), reading the clock. */
  #checked(): Promise<void> {
    if (this.#ready !== null && performance.now() - this.#checkedAt > this.#recheckMs) this.#ready = null;
    if (this.#ready === null) this.#checkedAt = performance.now();
    // The check is the first statement of a connection: connecting, the handshake and this trivial query are bounded
    // as one connect (connectMs), so a server that accepts the handshake and then stalls is given up on as soon as
    // one that never answers (a command: 10 s, not the 30 s a statement may wait for a lock).
    this.#ready ??= this.#query(this.#q.check, [], this.#connectMs).then(([row]) => {
      const version = row!.version === null ? null : Number(row!.version);
      if (version === null || version < LATEST_VERSION) throw notMigrated(this.schema, version);
      if (version > LATEST_VERSION) throw newerThanBinary(this.schema, version);
      this.#clock = { server: (row!.now as Date).getTime(), at: performance.now() };
    });
    // A failed check is not kept: the next call tries again (the table may have been made meanwhile).
    this.#ready.catch(() => (this.#ready = null));
    return this.#ready;
  }

  /**
   * Runs `work` in a transaction whose statements (the store's calls inside it) run on it: on the process's connection
   * when it is free, else on a spare one. Decided and marked with no await in between, so two callers never both
   * take the main connection. The whole transaction is one wait (limits.statementMs), its statements each another.
   */
  async #transaction<T>(work: () => Promise<T>): Promise<T> {
    const client = this.#main.inTransaction ? this.#spareClient() : this.#main;
    const onMain = client === this.#main;
    if (onMain) client.inTransaction = true;
    try {
      return await this.#run(() => {
        this.#assertTimeLeft();
        const done = client.sql.begin((tx) => this.#tx.run({ tx, client }, work)) as Promise<T>;
        return this.#bounded(client, done, null);
      });
    } finally {
      if (onMain) client.inTransaction = false;
    }
  }

  #spareClient(): Client {
    this.#spare ??= this.#client(8);
    return this.#spare;
  }

  /**
   * One statement on the current transaction (inside #transaction), else on a connection that is free.
   * @param boundMs how long it may wait (limits.statementMs unless shorter, as for the schema check)
   */
  #query(text: string, params: readonly unknown[] = [], boundMs = this.#limits.statementMs): Promise<Row[]> {
    const scope = this.#tx.getStore();
    const client = scope?.client ?? (this.#main.inTransaction ? this.#spareClient() : this.#main);
    const db: Db = scope?.tx ?? client.sql;
    return this.#run(async () => {
      this.#assertTimeLeft();
      const sent = db.unsafe(text, params as never[]) as unknown as SentQuery;
      return [...((await this.#bounded(client, sent, sent, boundMs)) as Row[])];
    });
  }

  /**
   * Waits for `pending` at most as long as the limits allow (a statement's bound, and what is left of the total);
   * past that, gives up: cancels every statement under way on the server, drops the connections, throws E_IO.
   * @param sent the statement to cancel if it is still running then (null: a transaction, whose statements are
   *   cancelled as statements)
   */
  #bounded<T>(
    client: Client,
    pending: Promise<T>,
    sent: SentQuery | null,
    statementMs = this.#limits.statementMs,
  ): Promise<T> {
    const timeLeftMs = this.#timeLeftMs();
    statementMs = Math.min(statementMs, this.#limits.statementMs);
    // The bound that ends this wait, as configured (the store's total time, or one statement's).
    const bound = timeLeftMs < statementMs ? this.#limits.totalMs : statementMs;
    if (sent !== null) this.#inFlight.set(sent, client);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.#abort();
          reject(this.#outOfTime(bound));
        },
        Math.min(statementMs, timeLeftMs),
      );
      pending.then(
        (value) => {
          clearTimeout(timer);
          if (sent !== null) this.#inFlight.delete(sent);
          client.connector.established();
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (sent !== null) this.#inFlight.delete(sent);
          // The server answered (with an error): the connection completed its handshake.
          if (sqlState(error) !== null) client.connector.established();
          reject(error);
        },
      );
    });
  }

  /**
   * A wait ran out: every statement under way is cancelled on the server (so a lock wait or a slow query does not go
   * on there), and the connections are dropped; the next call, if any, opens new ones.
   */
  #abort(): void {
    for (const [sent, client] of this.#inFlight) {
      const key = sent.state;
      if (typeof key?.pid === 'number' && typeof key.secret === 'number')
        this.#cancels.push(
          client.connector.cancel({ pid: key.pid, secret: key.secret }, Math.min(CANCEL_MS, this.#connectMs)),
        );
    }
    this.#inFlight.clear();
    const dropped = [this.#main, this.#spare];
    this.#main = this.#client(1);
    this.#spare = null;
    for (const client of dropped) {
      if (client === null) continue;
      client.connector.shutDown();
      client.sql.end({ timeout: 0 }).catch(() => undefined);
    }
  }

  #timeLeftMs(): number {
    return this.#limits.totalMs - (performance.now() - this.#openedAt);
  }

  /** @throws SessionError E_IO when the store's total time (limits.totalMs) is spent */
  #assertTimeLeft(): void {
    if (this.#timeLeftMs() <= 0) throw this.#outOfTime(this.#limits.totalMs);
  }

  #outOfTime(limitMs: number): SessionError {
    return new SessionError(
      'E_IO',
      `Cannot use the PostgreSQL store ${this.location}: no answer within ${limitMs / 1000} s ` +
        '(a lock held on its tables, a slow network, or not a PostgreSQL server); gave up',
    );
  }

  /** A driver client of at most `max` connections, opened when first used, connecting through a Connector. */
  #client(max: number): Client {
    const connector = new Connector(this.#address.targets, this.#connectMs, max);
    return { sql: driverClient(this.#address, connector, this.#connectMs, max), connector, inTransaction: false };
  }

  /** Runs `work`, turning the driver's errors into SessionErrors (never with the password). */
  async #run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw translate(error, this.location, this.schema);
    }
  }
}

// --- internal ---

/**
 * A postgres.js client on `address`: the connector opens its connections (the host and port given to the driver only
 * name them in its messages), the URL's other parameters are the driver's to apply.
 */
function driverClient(address: DatabaseAddress, connector: Connector, connectMs: number, max: number): Sql {
  const first = address.targets[0]!;
  const params = new URLSearchParams(address.params.map(([key, value]): [string, string] => [key, value])).toString();
  const options = {
    socket: connector.open,
    host: [first.kind === 'tcp' ? first.host : first.path],
    port: [first.port],
    ...(address.targets.length === 1 && first.kind === 'socket' ? { path: first.path } : {}),
    ...(address.user === undefined ? {} : { user: address.user }),
    ...(address.password === undefined ? {} : { pass: address.password }),
    ...(address.database === undefined ? {} : { database: address.database }),
    max,
    prepare: false,
    // One round trip less per process: no array types are used.
    fetch_types: false,
    connect_timeout: connectMs / 1000,
    // A caller that forgets close() (a library user) must not keep its process alive: an idle connection ends.
    idle_timeout: 5,
    // Notices (`… already exists, skipping`) must never reach a hook's stdout.
    onnotice: () => undefined,
    connection: { application_name: 'agent-session' },
  };
  return postgres(`postgres://localhost/${params === '' ? '' : `?${params}`}`, options as never);
}

/** The SQL of every statement, for one schema (built once per store). */
interface Queries {
  readonly check: string;
  readonly read: string;
  readonly readVersion: string;
  readonly create: string;
  readonly update: string;
  readonly updateIfState: string;
  readonly newestOf: string;
  readonly byClaudeAgent: string;
  readonly attachedTo: string;
  readonly newestPerAgent: string;
  readonly list: string;
  readonly listProject: string;
  readonly idsContaining: string;
  readonly query: string;
  readonly count: string;
  readonly statsSums: string;
  readonly statsDurations: string;
  readonly statsWaits: string;
  readonly statsLive: string;
  readonly unwritten: string;
  readonly aged: string;
  readonly readMany: string;
  readonly remove: string;
  readonly removeVersion: string;
  readonly lock: string;
  readonly putRaw: string;
  readonly lockBatch: string;
  readonly removeBatch: string;
}

function queries(s: string): Queries {
  // The Claude agent's pointer follows every write of a linked session, unless it names another session still
  // linked to that agent and more recently active (the file and memory stores' rule): part of the same statement.
  const pointer = (written: string): string => `
    pointer AS (
      INSERT INTO ${s}.claude_agents AS c (claude_agent_id, session_id)
      SELECT claude_agent_id, id FROM ${written} WHERE claude_agent_id IS NOT NULL
      ON CONFLICT (claude_agent_id) DO UPDATE SET session_id = EXCLUDED.session_id
      WHERE NOT EXISTS (
        SELECT 1 FROM ${s}.sessions o
        WHERE o.id = c.session_id AND o.id <> EXCLUDED.session_id AND o.claude_agent_id = EXCLUDED.claude_agent_id
          AND (o.last_activity, o.created_at) > ((SELECT last_activity FROM ${written}), (SELECT created_at FROM ${written}))
      )
    )`;
  const newest = 'ORDER BY last_activity DESC, created_at DESC, id LIMIT';
  // The facts of a stats scope: $1 the project (null: every one), $2 with those of none, $3 the agent, $4 since.
  const factsScope = `($1::text IS NULL OR project = $1 OR ($2::boolean AND project IS NULL))
    AND ($3::text IS NULL OR agent_name = $3) AND ($4::text IS NULL OR created_at >= $4::text::timestamptz)`;
  // A compare-and-swap write of row $1 where `condition` (on $2) still holds.
  const update = (condition: string): string => `
      WITH written AS (
        UPDATE ${s}.sessions SET
          agent_name = $3, phase = $4, error_count = $5, created_at = $6::text::timestamptz, last_activity = $7::text::timestamptz,
          finalized_at = $8::text::timestamptz, claude_agent_id = $9, project = $10, state = $11::text::jsonb,
          version = version + 1, written_at = clock_timestamp()
        WHERE id = $1 AND ${condition}
        RETURNING id, claude_agent_id, last_activity, created_at
      ), ${pointer('written')}
      SELECT id FROM written`;
  return {
    check: `SELECT clock_timestamp() AS now, (SELECT max(version) FROM ${s}.migrations) AS version`,
    read: `SELECT state::text AS state FROM ${s}.sessions WHERE id = $1`,
    readVersion: `SELECT version::text AS version, state::text AS state, written_at FROM ${s}.sessions WHERE id = $1`,
    create: `
      WITH written AS (
        INSERT INTO ${s}.sessions
          (id, agent_name, phase, error_count, created_at, last_activity, finalized_at, claude_agent_id, project, state)
        VALUES ($1, $2, $3, $4, $5::text::timestamptz, $6::text::timestamptz, $7::text::timestamptz, $8, $9,
          $10::text::jsonb)
        ON CONFLICT (id) DO NOTHING
        RETURNING id, claude_agent_id, last_activity, created_at
      ), ${pointer('written')}
      SELECT id FROM written`,
    update: update('version = $2::bigint'),
    updateIfState: update('state = $2::text::jsonb'),
    newestOf: `SELECT id, state::text AS state FROM ${s}.sessions
      WHERE project = $1 AND agent_name = $2 AND last_activity <= $3::text::timestamptz ${newest} $4`,
    byClaudeAgent: `SELECT id, state::text AS state FROM ${s}.sessions WHERE claude_agent_id = $1 AND project = $2
      ${newest} $3`,
    attachedTo: `SELECT s.id, s.state::text AS state FROM ${s}.claude_agents c JOIN ${s}.sessions s ON s.id = c.session_id
      WHERE c.claude_agent_id = $1 AND s.project = $2`,
    // The three most recently active of each agent: enough unless the newest ones are corrupt (then newestOf).
    newestPerAgent: `SELECT id, agent_name, state FROM (
        SELECT id, agent_name, state::text AS state,
          row_number() OVER (PARTITION BY agent_name ORDER BY last_activity DESC, created_at DESC, id) AS rank
        FROM ${s}.sessions WHERE project = $1 AND agent_name IS NOT NULL AND last_activity <= $2::text::timestamptz
      ) ranked WHERE rank <= 3 ORDER BY agent_name, rank`,
    list: `SELECT id, state::text AS state, written_at, project FROM ${s}.sessions ORDER BY id`,
    listProject: `SELECT id, state::text AS state, written_at, project FROM ${s}.sessions WHERE project = $1 OR project IS NULL
      ORDER BY id`,
    // A listing's page: the limit counts the rows that fit, and rows of empty columns (corrupt) come besides.
    query: `(SELECT id, state::text AS state, written_at FROM ${s}.sessions
        WHERE phase IS NOT NULL
          AND ($1::text IS NULL OR project = $1 OR ($5::boolean AND project IS NULL))
          AND ($2::text IS NULL OR phase IN (SELECT jsonb_array_elements_text($2::text::jsonb)))
          AND ($3::text IS NULL OR agent_name = $3)
        ORDER BY last_activity DESC, id LIMIT $4::bigint)
      UNION ALL
      (SELECT id, state::text AS state, written_at FROM ${s}.sessions WHERE phase IS NULL)`,
    count: `SELECT count(*)::integer AS n FROM ${s}.sessions
        WHERE phase IS NOT NULL
          AND ($1::text IS NULL OR project = $1 OR ($4::boolean AND project IS NULL))
          AND ($2::text IS NULL OR phase IN (SELECT jsonb_array_elements_text($2::text::jsonb)))
          AND ($3::text IS NULL OR agent_name = $3)`,
    // Per project, agent and error count: sums a hash aggregate takes in one scan (no sort).
    statsSums: `SELECT project, agent_name, error_count,
        count(*)::integer AS sessions,
        (count(*) FILTER (WHERE phase = 'completed'))::integer AS completed,
        (count(*) FILTER (WHERE phase = 'failed'))::integer AS failed,
        (count(*) FILTER (WHERE phase = 'abandoned'))::integer AS abandoned,
        sum(resumes)::integer AS resumes,
        (count(*) FILTER (WHERE resumes > 0))::integer AS resumed,
        coalesce(sum(duration_seconds), 0)::double precision AS duration_total,
        count(duration_seconds)::integer AS durations,
        sum(approvals)::integer AS approvals,
        sum(rejections)::integer AS rejections,
        sum(interruptions)::integer AS interruptions,
        sum(carried_on)::integer AS carried_on,
        (count(*) FILTER (WHERE interrupted_now))::integer AS interrupted_now,
        sum(permission_requests)::integer AS permission_requests,
        sum(permissions_granted)::integer AS permissions_granted,
        sum(permissions_refused)::integer AS permissions_refused,
        sum(permissions_spent)::integer AS permissions_spent,
        sum(continued)::integer AS continued,
        (count(*) FILTER (WHERE primed))::integer AS primed,
        max(last_activity) AS last_activity
      FROM ${s}.session_facts WHERE ${factsScope}
      GROUP BY project, agent_name, error_count`,
    // The medians, which do not add up: one per agent, per project and overall, over the finalized sessions' durations.
    statsDurations: `SELECT GROUPING(project, agent_name)::integer AS g, project, agent_name,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_seconds) AS median
      FROM ${s}.session_facts WHERE ${factsScope} AND duration_seconds IS NOT NULL
      GROUP BY GROUPING SETS ((agent_name), (project), ())`,
    statsWaits: `SELECT GROUPING(project, agent_name)::integer AS g, project, agent_name,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY w) AS median
      FROM ${s}.session_facts, unnest(decision_waits) w WHERE ${factsScope} AND approvals + rejections > 0
      GROUP BY GROUPING SETS ((agent_name), (project), ())`,
    statsLive: `SELECT id, state::text AS state FROM ${s}.sessions WHERE id IN (
        SELECT id FROM ${s}.session_facts WHERE ${factsScope}
          AND ((phase NOT IN ('completed', 'failed', 'abandoned') AND last_activity >= $5::text::timestamptz)
            OR interrupted_now))`,
    aged: `SELECT id, last_activity,
        (EXISTS (SELECT 1 FROM ${s}.session_facts f WHERE f.id = x.id)
          AND jsonb_typeof(state->'schema_version') = 'number' AND (state->>'schema_version')::numeric <= $5::integer
          AND jsonb_typeof(state->'error_count') = 'number' AND jsonb_typeof(state->'history') = 'array'
          AND jsonb_typeof(state->'metadata') = 'object' AND jsonb_typeof(state->'resume_ready') = 'boolean'
          AND state->>'last_updated' IS NOT NULL) IS TRUE AS plausible
      FROM ${s}.sessions x
      WHERE phase IS NOT NULL AND ($1::text IS NULL OR project = $1 OR ($2::boolean AND project IS NULL))
        AND (last_activity < $3::text::timestamptz OR last_activity > $4::text::timestamptz)`,
    readMany: `SELECT id, state::text AS state, written_at, project FROM ${s}.sessions
      WHERE id IN (SELECT jsonb_array_elements_text($1::text::jsonb))`,
    unwritten: `SELECT id, state::text AS state, written_at, project FROM ${s}.sessions WHERE phase IS NULL`,
    // The equal id first, so a limit never leaves it out.
    // LIKE rather than strpos: the trigram index (schema.ts, where the database allows it) serves it; $3 is $1 escaped.
    idsContaining: `SELECT id FROM ${s}.sessions WHERE id LIKE '%' || $3 || '%' ESCAPE '\\' ORDER BY id = $1 DESC, id
      LIMIT $2`,
    remove: `DELETE FROM ${s}.sessions WHERE id = $1 RETURNING id`,
    removeVersion: `DELETE FROM ${s}.sessions WHERE id = $1 AND version = $2::bigint RETURNING id`,
    lock: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
    lockBatch: `SELECT id, state::text AS state, written_at FROM ${s}.sessions WHERE id IN (SELECT jsonb_array_elements_text($1::text::jsonb))
      ORDER BY id FOR UPDATE SKIP LOCKED`,
    removeBatch: `DELETE FROM ${s}.sessions WHERE id IN (SELECT jsonb_array_elements_text($1::text::jsonb)) RETURNING id`,
    putRaw: `INSERT INTO ${s}.sessions (id, state, written_at)
      VALUES ($1, $2::text::jsonb, COALESCE($3::timestamptz, clock_timestamp()))
      ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, version = ${s}.sessions.version + 1,
        written_at = EXCLUDED.written_at`,
  };
}

/** The tally of the stats statements' rows (see Queries.statsSums, statsDurations, statsWaits). */
function tallyOfRows(sums: readonly Row[], durations: readonly Row[], waits: readonly Row[]): StatsTally {
  const overall = emptySums();
  const agents = new Map<string, StatsSums>();
  const projects = new Map<string | null, StatsSums>();
  for (const row of sums) {
    const part = sumsOfRow(row);
    mergeSums(overall, part);
    const agent = row.agent_name as string;
    const project = (row.project as string | null) ?? null;
    if (!agents.has(agent)) agents.set(agent, emptySums());
    mergeSums(agents.get(agent)!, part);
    if (!projects.has(project)) projects.set(project, emptySums());
    mergeSums(projects.get(project)!, part);
  }
  const medians = (rows: readonly Row[]) => {
    const found = {
      overall: null as number | null,
      agents: new Map<string, number>(),
      projects: new Map<string | null, number>(),
    };
    for (const row of rows) {
      if (row.median === null) continue;
      // GROUPING's bits: project 2, agent 1, each set when rolled up.
      const g = row.g as number;
      if (g === 2) found.agents.set(row.agent_name as string, Number(row.median));
      else if (g === 1) found.projects.set((row.project as string | null) ?? null, Number(row.median));
      else if (g === 3) found.overall = Number(row.median);
    }
    return found;
  };
  const duration = medians(durations);
  const decision = medians(waits);
  const group = (own: StatsSums, ofDuration: number | undefined, ofDecision: number | undefined): TallyGroup => ({
    sums: own,
    median_duration: ofDuration ?? null,
    median_decision: ofDecision ?? null,
  });
  const agentGroups: Record<string, TallyGroup> = Object.create(null) as Record<string, TallyGroup>;
  for (const [name, own] of agents)
    agentGroups[name] = group(own, duration.agents.get(name), decision.agents.get(name));
  return {
    overall: group(overall, duration.overall ?? undefined, decision.overall ?? undefined),
    agents: agentGroups,
    projects: [...projects].map(([project, own]) => ({
      project,
      group: group(own, duration.projects.get(project), decision.projects.get(project)),
    })),
  };
}

/** The sums of one row of statsSums (one project's agent's sessions of one error count). */
function sumsOfRow(row: Row): StatsSums {
  const sums = emptySums();
  for (const key of Object.keys(sums) as (keyof StatsSums)[]) {
    if (key === 'by_error_count' || key === 'last_activity') continue;
    sums[key] = Number(row[key]);
  }
  sums.by_error_count[String(row.error_count)] = Number(row.sessions);
  sums.last_activity = row.last_activity === null ? null : (row.last_activity as Date).getTime();
  return sums;
}

/** The indexed columns of a state, in the order of the create and update statements. */
function columns(state: SessionState): unknown[] {
  return [
    state.agent_name,
    state.phase,
    state.error_count,
    state.created_at,
    state.last_updated,
    state.finalized_at ?? null,
    state.claude?.agent_id ?? null,
    state.project ?? null,
  ];
}

/** A `notAfter` bound as a timestamptz parameter. */
function bound(notAfter: number): string {
  return Number.isFinite(notAfter) ? new Date(notAfter).toISOString() : 'infinity';
}

/**
 * A listed row: valid, or corrupt with the project whose it is (the row's project column, or for a row written without
 * it the project its JSON names), so `query` and `list` judge a corrupt row's scope alike.
 */
function listedRow(row: Row): ListedSession {
  const id = row.id as string;
  try {
    return { kind: 'valid', id, state: decode(id, row.state as string) };
  } catch (error) {
    if (!isSessionError(error, 'E_CORRUPT')) throw error;
    const project = (row.project as string | null | undefined) ?? namedProject(row.state as string);
    return {
      kind: 'corrupt',
      id,
      error: error.message,
      modifiedAt: row.written_at as Date,
      ...(project === undefined ? {} : { project }),
    };
  }
}

function decode(id: string, text: string): SessionState {
  return decodeState(id, text, 'the stored state');
}

function decodeQuiet(id: string, text: string): SessionState | null {
  try {
    return decode(id, text);
  } catch (error) {
    if (isSessionError(error, 'E_CORRUPT')) return null;
    throw error;
  }
}

/** SQLSTATE codes that mean "try later": a lock wait timed out, a deadlock or serialization failure was broken. */
const BUSY_CODES = new Set(['55P03', '40P01', '40001']);
/** SQLSTATE codes of a value PostgreSQL cannot store in jsonb (a NUL or lone surrogate in a string, too deep). */
const UNSTORABLE_CODES = new Set(['22P05', '22021', '22P02', '54001']);
/** SQLSTATE codes of a missing table or schema. */
const MISSING_CODES = new Set(['42P01', '3F000']);
/** SQLSTATE codes of tables altered by hand: a column dropped, a key removed (migrate says what is wrong). */
const ALTERED_CODES = new Set(['42703', '42P10']);

/** The SQLSTATE of a server error (the server answered), else null. */
function sqlState(error: unknown): string | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** A driver or server error as a SessionError naming the store (masked URL); SessionErrors pass through. */
function translate(error: unknown, location: string, schema: string): unknown {
  // Duck-typed: Node's own errors come from another realm under jest, where `instanceof Error` fails.
  if (isSessionError(error) || typeof error !== 'object' || error === null || !('message' in error)) return error;
  const { code: raw, name, message } = error as { code?: unknown; name?: unknown; message: unknown };
  const code = String(raw ?? '');
  if (BUSY_CODES.has(code))
    return new SessionError('E_BUSY', `The PostgreSQL store ${location} is busy (${String(message)})`, {
      cause: error,
    });
  if (UNSTORABLE_CODES.has(code))
    return new SessionError(
      'E_USAGE',
      `Expected a state PostgreSQL can store in jsonb, got one it refuses (${String(message)})`,
      { cause: error },
    );
  // Hooks never migrate: the tables are made by `agent-session migrate`.
  if (MISSING_CODES.has(code)) return notMigrated(schema, null);
  if (ALTERED_CODES.has(code))
    return new SessionError(
      'E_IO',
      `Cannot use the PostgreSQL store ${location}: ${String(message)}; run \`agent-session migrate\` to check its tables`,
      { cause: error },
    );
  const driver = name === 'PostgresError' || /^[0-9A-Z]{5}$/.test(code) || /^E[A-Z]+$|^CONNE/.test(code);
  if (!driver) return error;
  return new SessionError('E_IO', `Cannot use the PostgreSQL store ${location}: ${String(message)}`, { cause: error });
}

function duplicate(id: string): SessionError {
  return new SessionError('E_DUPLICATE', `Session \`${id}\` already exists; create never overwrites`);
}
