import { SessionError } from '../../core/errors';

/**
 * The tables of the PostgreSQL store, as numbered migrations. Each runs once, in order, inside `migrate`'s one
 * transaction; a database that records a higher number than the last one here was set up by a newer agent-session.
 */
interface Migration {
  readonly version: number;
  readonly name: string;
  /** The statements, given the quoted schema name. */
  readonly statements: (schema: string) => readonly string[];
  /**
   * Statements that only speed things up and need what a database may not allow (an extension): each runs in a
   * savepoint, and one the server refuses is left out (the store works without it, scanning instead).
   */
  readonly optional?: (schema: string) => readonly string[];
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions and Claude agent pointers',
    statements: (s) => [
      // The whole state document is `state`; the other columns are copies the store writes in the same statement,
      // for the indexes (newest of an agent, active sessions, a Claude agent's session, cleanup by age).
      `CREATE TABLE ${s}.sessions (
        id text PRIMARY KEY,
        agent_name text,
        phase text,
        version bigint NOT NULL DEFAULT 1,
        error_count integer,
        created_at timestamptz,
        last_activity timestamptz,
        finalized_at timestamptz,
        claude_agent_id text,
        state jsonb NOT NULL,
        written_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      `CREATE INDEX sessions_newest_of_agent ON ${s}.sessions (agent_name, last_activity DESC, created_at DESC)`,
      `CREATE INDEX sessions_active ON ${s}.sessions (last_activity DESC) WHERE finalized_at IS NULL`,
      `CREATE INDEX sessions_by_age ON ${s}.sessions (last_activity)`,
      `CREATE INDEX sessions_claude_agent ON ${s}.sessions (claude_agent_id) WHERE claude_agent_id IS NOT NULL`,
      // The session each Claude agent id was attached to (the file store's .claude-agents/ pointers); removing a
      // session removes its pointers.
      `CREATE TABLE ${s}.claude_agents (
        claude_agent_id text PRIMARY KEY,
        session_id text NOT NULL REFERENCES ${s}.sessions (id) ON DELETE CASCADE
      )`,
      `CREATE INDEX claude_agents_session ON ${s}.claude_agents (session_id)`,
    ],
  },
  {
    version: 2,
    name: 'sessions belong to a project',
    statements: (s) => [
      // The project of the state (core/project.ts), copied as the other columns are. Rows an older version wrote name
      // none: NULL, unassigned (listed, never resumed or relinked) until `agent-session adopt` gives them one.
      `ALTER TABLE ${s}.sessions ADD COLUMN project text`,
      `UPDATE ${s}.sessions SET project = state->>'project' WHERE state->>'project' IS NOT NULL`,
      // The newest of an agent is the newest of a project's agent: the project leads the index (and serves a project's
      // listing and its newest per agent too).
      `DROP INDEX ${s}.sessions_newest_of_agent`,
      `CREATE INDEX sessions_newest_of_agent ON ${s}.sessions (project, agent_name, last_activity DESC, created_at DESC)`,
      `CREATE INDEX sessions_unassigned ON ${s}.sessions (id) WHERE project IS NULL`,
    ],
  },
  {
    version: 3,
    name: 'stats facts and a listing by project',
    statements: (s) => [
      // What `stats` counts of each valid session (core/views/stats.ts StatsFacts), kept by a trigger from the row as
      // written, so a million sessions are counted from a narrow table instead of read (issue 45). The writers (older
      // versions' too) need not know: the trigger follows every insert and update, the foreign key every delete.
      `CREATE TABLE ${s}.session_facts (
        id text PRIMARY KEY REFERENCES ${s}.sessions (id) ON DELETE CASCADE,
        project text,
        agent_name text NOT NULL,
        phase text NOT NULL,
        created_at timestamptz NOT NULL,
        last_activity timestamptz NOT NULL,
        error_count integer NOT NULL,
        duration_seconds double precision,
        resumes integer NOT NULL,
        approvals integer NOT NULL,
        rejections integer NOT NULL,
        decision_waits double precision[] NOT NULL,
        interruptions integer NOT NULL,
        carried_on integer NOT NULL,
        interrupted_now boolean NOT NULL,
        permission_requests integer NOT NULL,
        permissions_granted integer NOT NULL,
        permissions_refused integer NOT NULL,
        permissions_spent integer NOT NULL,
        continued integer NOT NULL,
        primed boolean NOT NULL
      )`,
      `CREATE INDEX session_facts_project ON ${s}.session_facts (project, agent_name)`,
      `CREATE INDEX session_facts_interrupted ON ${s}.session_facts (id) WHERE interrupted_now`,
      `CREATE INDEX session_facts_live ON ${s}.session_facts (last_activity) WHERE phase NOT IN ${FINAL}`,
      `CREATE INDEX session_facts_decided ON ${s}.session_facts (project) WHERE approvals + rejections > 0`,
      `CREATE FUNCTION ${s}.session_facts_follow() RETURNS trigger LANGUAGE plpgsql AS $body$
      BEGIN
        BEGIN
          ${factsUpsert(s, 'x.id = NEW.id')};
          IF NOT FOUND THEN DELETE FROM ${s}.session_facts WHERE id = NEW.id; END IF;
        EXCEPTION WHEN others THEN
          -- A state these expressions cannot read is not counted; the write itself goes on.
          DELETE FROM ${s}.session_facts WHERE id = NEW.id;
        END;
        RETURN NULL;
      END $body$`,
      `CREATE TRIGGER session_facts_follow AFTER INSERT OR UPDATE ON ${s}.sessions
        FOR EACH ROW EXECUTE FUNCTION ${s}.session_facts_follow()`,
      // The rows written before: counted once, here (a state these expressions cannot read stops the migration).
      factsUpsert(s, 'true'),
      // A project's listing, newest first, one agent's or one phase's (list --limit, pending): the index ends where the
      // ORDER BY does, so a page of a project of 100,000 sessions reads the page.
      `CREATE INDEX sessions_project_newest ON ${s}.sessions (project, last_activity DESC, id)`,
      `CREATE INDEX sessions_project_phase ON ${s}.sessions (project, phase, last_activity DESC, id)`,
      // The same across projects (pending --all-projects: a page of one phase, and its count).
      `CREATE INDEX sessions_phase ON ${s}.sessions (phase, last_activity DESC, id)`,
      // Rows no version of ours wrote whole (corrupt), which every listing shows besides: found without a scan.
      `CREATE INDEX sessions_unwritten ON ${s}.sessions (id) WHERE phase IS NULL`,
    ],
    // A user's short id (any part of one: SessionStore.idsContaining) found on a trigram index instead of a scan of a
    // million ids, where the database lets pg_trgm be created (a trusted extension since PostgreSQL 13).
    optional: (s) => [
      'CREATE EXTENSION IF NOT EXISTS pg_trgm',
      `CREATE INDEX sessions_id_trigrams ON ${s}.sessions USING gin (id gin_trgm_ops)`,
    ],
  },
];

/** The final phases, as SQL. */
const FINAL = `('completed', 'failed', 'abandoned')`;

/**
 * The statement that writes the facts of the sessions rows `where` picks (alias `x`): the expressions are those of
 * statsFactsOf (core/views/stats.ts), on the state document; rows that are not a valid session's (no columns, another
 * id or phase in the document) are left out. The contract suite compares what they count with statsFactsOf's.
 */
function factsUpsert(s: string, where: string): string {
  const decisions = `jsonb_array_elements(CASE WHEN jsonb_typeof(x.state->'decisions') = 'array' THEN x.state->'decisions' ELSE '[]' END)`;
  const requests = `jsonb_array_elements(CASE WHEN jsonb_typeof(x.state->'permission_requests') = 'array' THEN x.state->'permission_requests' ELSE '[]' END)`;
  const columns = [
    'id',
    'project',
    'agent_name',
    'phase',
    'created_at',
    'last_activity',
    'error_count',
    'duration_seconds',
    'resumes',
    'approvals',
    'rejections',
    'decision_waits',
    'interruptions',
    'carried_on',
    'interrupted_now',
    'permission_requests',
    'permissions_granted',
    'permissions_refused',
    'permissions_spent',
    'continued',
    'primed',
  ];
  return `INSERT INTO ${s}.session_facts AS f (${columns.join(', ')})
    SELECT x.id, x.project, x.agent_name, x.phase, x.created_at, x.last_activity, x.error_count,
      CASE WHEN x.phase IN ${FINAL} THEN (x.state->>'duration_seconds')::double precision END,
      (SELECT count(*) FROM jsonb_array_elements(x.state->'history') e WHERE e->>'event' = 'resume')
        + coalesce((x.state->>'resumes_dropped')::integer, 0),
      (SELECT count(*) FROM ${decisions} d WHERE d->>'decision' = 'approved'),
      (SELECT count(*) FROM ${decisions} d WHERE d->>'decision' IS DISTINCT FROM 'approved'),
      ARRAY(SELECT greatest(0, extract(epoch FROM (d->>'at')::timestamptz - (d->>'waiting_since')::timestamptz))::double precision
        FROM ${decisions} d),
      coalesce((x.state->'interruption'->>'count')::integer, 0),
      coalesce((x.state->'interruption'->>'carried_on')::integer, 0),
      x.phase NOT IN ${FINAL} AND coalesce((x.state->'interruption'->>'waiting')::boolean, false),
      (SELECT count(*) FROM ${requests} r),
      (SELECT count(*) FROM ${requests} r WHERE r->>'status' IN ('approved', 'spent') OR r->'expires_at' IS NOT NULL),
      (SELECT count(*) FROM ${requests} r WHERE r->>'status' = 'rejected'),
      (SELECT count(*) FROM ${requests} r WHERE r->>'status' = 'spent'),
      coalesce((x.state->'continuation'->>'count')::integer, 0),
      coalesce(x.state->'continuation'->>'choice' = 'prime', false)
    FROM ${s}.sessions x
    WHERE ${where} AND x.phase IS NOT NULL AND x.agent_name IS NOT NULL AND x.created_at IS NOT NULL
      AND x.last_activity IS NOT NULL AND x.error_count IS NOT NULL
      AND x.state->>'agent_id' = x.id AND x.state->>'phase' = x.phase
    ON CONFLICT (id) DO UPDATE SET ${columns
      .slice(1)
      .map((column) => `${column} = EXCLUDED.${column}`)
      .join(', ')}`;
}

/**
 * The tables as the latest version leaves them: each column's type (as PostgreSQL's format_type names it), and the
 * one-column unique index each table's `ON CONFLICT` and lookups need. `migrate` checks them, so a table altered by
 * hand (a dropped column) is named there instead of failing every hook.
 */
const EXPECTED_TABLES: Readonly<Record<string, { readonly columns: Record<string, string>; readonly key: string }>> = {
  sessions: {
    columns: {
      id: 'text',
      agent_name: 'text',
      phase: 'text',
      version: 'bigint',
      error_count: 'integer',
      created_at: 'timestamp with time zone',
      last_activity: 'timestamp with time zone',
      finalized_at: 'timestamp with time zone',
      claude_agent_id: 'text',
      state: 'jsonb',
      written_at: 'timestamp with time zone',
      project: 'text',
    },
    key: 'id',
  },
  session_facts: {
    columns: {
      id: 'text',
      project: 'text',
      agent_name: 'text',
      phase: 'text',
      created_at: 'timestamp with time zone',
      last_activity: 'timestamp with time zone',
      error_count: 'integer',
      duration_seconds: 'double precision',
      resumes: 'integer',
      approvals: 'integer',
      rejections: 'integer',
      decision_waits: 'double precision[]',
      interruptions: 'integer',
      carried_on: 'integer',
      interrupted_now: 'boolean',
      permission_requests: 'integer',
      permissions_granted: 'integer',
      permissions_refused: 'integer',
      permissions_spent: 'integer',
      continued: 'integer',
      primed: 'boolean',
    },
    key: 'id',
  },
  claude_agents: { columns: { claude_agent_id: 'text', session_id: 'text' }, key: 'claude_agent_id' },
  migrations: { columns: { version: 'integer', name: 'text', applied_at: 'timestamp with time zone' }, key: 'version' },
};

/** The schema version this build reads and writes. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** What `migrate` did: the version found, the version left, the migrations applied. */
export interface MigrationResult {
  readonly schema: string;
  readonly from: number;
  readonly to: number;
  readonly applied: readonly string[];
}

/** `schema` quoted for SQL text (the name is checked by assertSchemaName: no quote can occur in it). */
export function quoteSchema(schema: string): string {
  return `"${schema}"`;
}

/** Runs one statement inside the migration's transaction. */
export type RunStatement = (text: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Creates or upgrades the store's tables in `schema`: `run` runs each statement inside one transaction (the caller's),
 * first taking a transaction-level advisory lock (so two `migrate` runs at once wait for each other instead of racing
 * on CREATE), and records each step in `<schema>.migrations`. Running it again changes nothing.
 * @throws SessionError E_REFUSED when the database was set up by a newer agent-session
 */
export async function migrate(
  run: RunStatement,
  schema: string,
  /** The version to stop at (tests: a store as an older version left it); default the latest. */
  target = LATEST_VERSION,
): Promise<MigrationResult> {
  const s = quoteSchema(schema);
  await run('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`agent-session/migrate/${schema}`]);
  await run(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await run(
    `CREATE TABLE IF NOT EXISTS ${s}.migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
  );
  const [row] = await run(`SELECT coalesce(max(version), 0)::integer AS version FROM ${s}.migrations`);
  const from = Number(row!.version);
  if (from > LATEST_VERSION) throw newerThanBinary(schema, from);
  const applied: string[] = [];
  for (const migration of MIGRATIONS) {
    if (migration.version <= from || migration.version > target) continue;
    for (const statement of migration.statements(s)) await run(statement);
    for (const statement of migration.optional?.(s) ?? []) {
      await run('SAVEPOINT agent_session_optional');
      try {
        await run(statement);
        await run('RELEASE SAVEPOINT agent_session_optional');
      } catch {
        // Refused (no privilege to create the extension, none installed): left out, the store scans instead.
        await run('ROLLBACK TO SAVEPOINT agent_session_optional');
      }
    }
    await run(`INSERT INTO ${s}.migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    applied.push(`${migration.version} ${migration.name}`);
  }
  if (target < LATEST_VERSION) return { schema, from, to: Math.max(from, target), applied };
  const wrong = await tableProblems(run, schema);
  if (wrong.length > 0) throw alteredTables(schema, Math.max(from, LATEST_VERSION), wrong);
  return { schema, from, to: Math.max(from, LATEST_VERSION), applied };
}

/** What differs between the tables in `schema` and EXPECTED_TABLES (empty: nothing). */
async function tableProblems(run: RunStatement, schema: string): Promise<string[]> {
  const columns = await run(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
    [schema],
  );
  const keys = await run(
    `SELECT c.relname AS table, a.attname AS column
      FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
      WHERE n.nspname = $1 AND i.indisunique AND i.indnatts = 1`,
    [schema],
  );
  const found = new Map<string, Map<string, string>>();
  for (const row of columns) {
    const table = found.get(row.table as string) ?? new Map<string, string>();
    table.set(row.column as string, row.type as string);
    found.set(row.table as string, table);
  }
  const unique = new Set(keys.map((row) => `${String(row.table)}.${String(row.column)}`));
  const problems: string[] = [];
  for (const [table, expected] of Object.entries(EXPECTED_TABLES)) {
    const have = found.get(table);
    if (have === undefined) {
      problems.push(`the table \`${table}\` is missing`);
      continue;
    }
    for (const [column, type] of Object.entries(expected.columns)) {
      const actual = have.get(column);
      if (actual === undefined) problems.push(`\`${table}\` has no column \`${column}\` (${type})`);
      else if (actual !== type) problems.push(`\`${table}.${column}\` is ${actual}, not ${type}`);
    }
    if (have.has(expected.key) && !unique.has(`${table}.${expected.key}`))
      problems.push(`\`${table}.${expected.key}\` is no longer its primary key`);
  }
  return problems;
}

/** The refusal of tables altered by hand: what is wrong, and the ways out. */
function alteredTables(schema: string, version: number, problems: readonly string[]): SessionError {
  return new SessionError(
    'E_REFUSED',
    `The PostgreSQL schema \`${schema}\` is at version ${version}, but its tables are not as agent-session made ` +
      `them: ${problems.join('; ')}. Put them back as migration ${version} made them, or copy the sessions out ` +
      '(`agent-session copy`), drop the schema and migrate again (nothing was changed)',
  );
}

/** The refusal of a database whose schema a newer agent-session made. */
export function newerThanBinary(schema: string, found: number): SessionError {
  return new SessionError(
    'E_REFUSED',
    `The PostgreSQL schema \`${schema}\` is at version ${found}, newer than this agent-session's ${LATEST_VERSION}; ` +
      'upgrade agent-session (nothing was changed)',
  );
}

/** The refusal of a schema that `migrate` has not set up (or not up to this version). */
export function notMigrated(schema: string, found: number | null): SessionError {
  const what = found === null ? 'has no agent-session tables' : `is at version ${found} of ${LATEST_VERSION}`;
  return new SessionError('E_IO', `The PostgreSQL schema \`${schema}\` ${what}: run \`agent-session migrate\``);
}
