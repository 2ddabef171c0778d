// Issue 23: sessions belong to a project. Two projects (two folders, two repositories with their own git remote) share
// one store, as a team shares one database URL: project A parks `terraform-architect` in approval with metadata; in
// project B nothing of it is resumed, relinked or shown, through the built bins (seed protocol, Claude Code events, the
// CLI). The same on the real PostgreSQL server and on a folder of files both projects point AGENT_SESSION_DIR at.
// Before the issue, B's seed pre-delegate by name answered A's session and metadata, and B's SubagentStart relinked it.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyChange, newSession } from '../../src/core/session';
import type { SessionState } from '../../src/core/state';
import { BIN, gitRepository, projectMaker, run, tempDir } from '../helpers';
import { runOutsideAgent } from '../support/outside-agent';
import { describeWithDatabase, freshSchemaName } from '../support/test-database';

const base = tempDir();
const folder = projectMaker(base);

/** The remotes of the two projects (two forms git writes) and the names agent-session gives them. */
const A = { remote: 'git@github.com:acme/infra.git', name: 'github.com/acme/infra' };
const B = { remote: 'https://ci:token@GitHub.com/acme/web.git', name: 'github.com/acme/web' };
const SECRET = 'project A only';

type Result = ReturnType<typeof run>;

function ok(result: Result | { status: number; stdout: string; stderr: string }): string {
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  return result.stdout;
}

/** The bins of one project folder on a store chosen by `storeEnv` (PostgreSQL, or a folder shared by AGENT_SESSION_DIR). */
function projectBins(cwd: string, storeEnv: () => Record<string, string>) {
  const env = () => ({ CLAUDE_PROJECT_DIR: cwd, ...storeEnv() });
  const payload = (event: Record<string, unknown>) => ({
    session_id: `session-${cwd.length}`,
    transcript_path: join(cwd, 't.jsonl'),
    cwd,
    ...event,
  });
  return {
    cli: (args: readonly string[]) => run(BIN.cli, args, { cwd, env: env() }),
    /** approve and reject as a user runs them: outside any agent's shell (the test runner may run in one). */
    decide: (args: readonly string[]) => runOutsideAgent(BIN.cli, args, { cwd, env: env() }),
    seed: (bin: string, input: unknown) => run(bin, [], { cwd, env: env(), input: JSON.stringify(input) }),
    claude: (bin: string, event: Record<string, unknown>) =>
      run(bin, [], { cwd, env: env(), input: JSON.stringify(payload(event)) }),
  };
}

/** The scenario of the issue on one store; `storeEnv` is read when the tests run (the database's after its set-up). */
function twoProjects(storeEnv: () => Record<string, string>): void {
  it('project B resumes, relinks and shows nothing of project A; A keeps resuming its own', () => {
    const a = projectBins(gitRepository(folder(), A.remote), storeEnv);
    const b = projectBins(gitRepository(folder(), B.remote), storeEnv);

    // A parks terraform-architect in approval, with metadata only A may see; a Claude agent of A ran it and stopped.
    const id = ok(
      a.cli([
        'create',
        '--agent',
        'terraform-architect',
        '--purpose',
        'approval_workflow',
        '--metadata',
        JSON.stringify({ secret_plan: SECRET }),
      ]),
    ).trim();
    ok(a.cli(['update', id, '--phase', 'approval']));
    const relinked = a.claude(BIN.preDelegate, {
      agent_id: 'a00000000000000a1',
      agent_type: 'terraform-architect',
      hook_event_name: 'SubagentStart',
    });
    expect(ok(relinked)).toContain(`resumes session ${id}`);
    ok(
      a.claude(BIN.subagentStop, {
        agent_id: 'a00000000000000a1',
        agent_type: 'terraform-architect',
        hook_event_name: 'SubagentStop',
        last_assistant_message: 'Plan ready',
        stop_hook_active: false,
      }),
    );
    const parked = JSON.parse(ok(a.cli(['get', id])));
    expect(parked).toMatchObject({ project: A.name, phase: 'approval', claude: { agent_id: 'a00000000000000a1' } });

    // B, by name and by A's id: nothing to resume (seed protocol).
    const byName = b.seed(BIN.preDelegate, { agent_name: 'terraform-architect' });
    expect(JSON.parse(ok(byName))).toEqual({ should_resume: false, reason: 'no_existing_session' });
    const byId = b.seed(BIN.preDelegate, { agent_name: 'terraform-architect', agent_id: id });
    expect(JSON.parse(ok(byId))).toEqual({ should_resume: false, reason: 'other_project', agent_id: id });
    const stop = b.seed(BIN.subagentStop, { task_info: { agent_id: id }, agent_output: 'done', exit_code: 0 });
    expect(JSON.parse(ok(stop))).toEqual({ finalized: false, reason: 'other_project', agent_id: id });

    // B's Claude Code session: nothing parked to tell of; a delegation to the same agent type, even under the Claude
    // agent id A's session is linked to, gets a session of its own.
    const started = b.claude(BIN.preDelegate, { hook_event_name: 'SessionStart', source: 'startup' });
    expect(ok(started)).toBe('');
    const sameAgentId = b.claude(BIN.preDelegate, {
      agent_id: 'a00000000000000a1',
      agent_type: 'terraform-architect',
      hook_event_name: 'SubagentStart',
    });
    const newAgent = b.claude(BIN.preDelegate, {
      agent_id: 'a00000000000000b1',
      agent_type: 'terraform-architect',
      hook_event_name: 'SubagentStart',
    });
    for (const result of [sameAgentId, newAgent]) {
      const context = JSON.parse(ok(result)).hookSpecificOutput.additionalContext as string;
      expect(context).not.toContain(id);
      expect(context).not.toMatch(/resumes session/);
    }
    const prompt = b.claude(BIN.preDelegate, { hook_event_name: 'UserPromptSubmit', prompt: 'go on' });
    const preTool = b.claude(BIN.preDelegate, {
      hook_event_name: 'PreToolUse',
      tool_name: 'Agent',
      tool_input: { subagent_type: 'terraform-architect', prompt: 'apply', description: 'apply' },
      tool_use_id: 'toolu_b',
    });
    for (const result of [byName, byId, stop, started, sameAgentId, newAgent, prompt, preTool])
      expect(result.stdout).not.toContain('secret_plan');
    // Only the answers about A's id (given by B) name it.
    for (const result of [byName, started, sameAgentId, newAgent, prompt, preTool])
      expect(result.stdout).not.toContain(id);

    // A's session is exactly as A left it.
    expect(JSON.parse(ok(a.cli(['get', id])))).toEqual(parked);

    // B's commands show B's sessions; --all-projects shows both, naming each one's project.
    const mine = JSON.parse(ok(b.cli(['list', '--json']))) as { agent_id: string; project: string }[];
    expect(mine.map((entry) => entry.project)).toEqual([B.name, B.name]);
    expect(mine.map((entry) => entry.agent_id)).not.toContain(id);
    const every = JSON.parse(ok(b.cli(['list', '--json', '--all-projects']))) as {
      agent_id: string;
      project: string;
    }[];
    expect(every.find((entry) => entry.agent_id === id)).toMatchObject({
      project: A.name,
      resumable_now: false,
      resume_reason: 'other_project',
    });
    expect(every).toHaveLength(3);
    expect(ok(b.cli(['list', '--all-projects']))).toMatch(
      new RegExp(`^PROJECT +ID[^\\n]*\\n(.*\\n)*${A.name} +${id.slice(-8)} `),
    );
    expect(ok(b.cli(['pending', '--json']))).not.toContain(id);
    expect(ok(b.cli(['pending', '--json', '--all-projects']))).toContain(id);
    const stats = JSON.parse(ok(b.cli(['stats', '--json'])));
    expect(stats).toMatchObject({ project: B.name, overall: { sessions: 2 } });
    const allStats = JSON.parse(ok(b.cli(['stats', '--json', '--all-projects'])));
    expect(allStats.overall.sessions).toBe(3);
    expect(allStats.projects).toEqual([
      expect.objectContaining({ project: A.name, overall: expect.objectContaining({ sessions: 1 }) }),
      expect.objectContaining({ project: B.name, overall: expect.objectContaining({ sessions: 2 }) }),
    ]);
    expect(ok(b.cli(['report', '--out', '-']))).not.toContain('secret_plan');

    // A decision from B's inbox on A's session is refused, nothing written; --all-projects decides on it.
    const refused = b.decide(['approve', id]);
    expect(refused.status).toBe(4);
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(ok(a.cli(['get', id])))).toEqual(parked);
    expect(b.cli(['should-resume', id]).stdout).toBe('false other_project\n');

    // A resumes its own session, with its metadata.
    const resumed = JSON.parse(ok(a.seed(BIN.preDelegate, { agent_name: 'terraform-architect' })));
    expect(resumed).toMatchObject({
      should_resume: true,
      agent_id: id,
      resume_metadata: { metadata: { secret_plan: SECRET } },
    });
    expect(ok(b.decide(['reject', id, '--reason', 'not yours, but asked for', '--all-projects']))).toContain(
      `Rejected session ${id}`,
    );
  });
}

describeWithDatabase('two projects on one PostgreSQL database', (db) => {
  afterEach(() => db.truncate());
  twoProjects(() => ({ AGENT_SESSION_DATABASE_URL: db.url, AGENT_SESSION_DATABASE_SCHEMA: db.schema }));
});

describe('two projects on one folder of files (AGENT_SESSION_DIR)', () => {
  let n = 0;
  let shared = '';
  beforeEach(() => {
    shared = join(base, `shared-${n++}`);
  });
  twoProjects(() => ({ AGENT_SESSION_DIR: shared }));
});

// --- older stores: nothing lost, nothing resumed across projects ---

/** A session as an older agent-session wrote it (no project), parked in approval a moment ago. */
function olderSession(id: string): SessionState {
  const now = new Date();
  const state = newSession({ agent_id: id, agent_name: 'terraform-architect', purpose: 'approval_workflow' }, now);
  return applyChange(state, { phase: 'approval', metadata: { plan: 'older plan' } }, now);
}

describeWithDatabase('an older PostgreSQL store (schema version 1)', (db) => {
  const schema = freshSchemaName();

  it('migrates without loss: its rows are unassigned (listed, never resumed) until a project adopts them', async () => {
    try {
      await olderStoreMigrates();
    } finally {
      await db.sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });

  async function olderStoreMigrates(): Promise<void> {
    // The tables as migration 1 made them, and a row an older version wrote.
    const s = `"${schema}"`;
    for (const statement of [
      `CREATE SCHEMA ${s}`,
      `CREATE TABLE ${s}.migrations (version integer PRIMARY KEY, name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
      `CREATE TABLE ${s}.sessions (id text PRIMARY KEY, agent_name text, phase text, version bigint NOT NULL DEFAULT 1,
        error_count integer, created_at timestamptz, last_activity timestamptz, finalized_at timestamptz,
        claude_agent_id text, state jsonb NOT NULL, written_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
      `CREATE INDEX sessions_newest_of_agent ON ${s}.sessions (agent_name, last_activity DESC, created_at DESC)`,
      `CREATE INDEX sessions_active ON ${s}.sessions (last_activity DESC) WHERE finalized_at IS NULL`,
      `CREATE INDEX sessions_by_age ON ${s}.sessions (last_activity)`,
      `CREATE INDEX sessions_claude_agent ON ${s}.sessions (claude_agent_id) WHERE claude_agent_id IS NOT NULL`,
      `CREATE TABLE ${s}.claude_agents (claude_agent_id text PRIMARY KEY,
        session_id text NOT NULL REFERENCES ${s}.sessions (id) ON DELETE CASCADE)`,
      `CREATE INDEX claude_agents_session ON ${s}.claude_agents (session_id)`,
      `INSERT INTO ${s}.migrations (version, name) VALUES (1, 'sessions and Claude agent pointers')`,
    ])
      await db.sql(statement);
    const older = olderSession('older-1');
    await db.sql(
      `INSERT INTO ${s}.sessions (id, agent_name, phase, error_count, created_at, last_activity, state)
        VALUES ($1, $2, $3, 0, $4::text::timestamptz, $5::text::timestamptz, $6::text::jsonb)`,
      [older.agent_id, older.agent_name, older.phase, older.created_at, older.last_updated, JSON.stringify(older)],
    );
    const p = gitRepository(folder(), A.remote);
    const env = { AGENT_SESSION_DATABASE_URL: db.url, AGENT_SESSION_DATABASE_SCHEMA: schema, CLAUDE_PROJECT_DIR: p };
    const cli = (args: readonly string[]) => run(BIN.cli, args, { cwd: p, env });
    const seed = () =>
      run(BIN.preDelegate, [], { cwd: p, env, input: JSON.stringify({ agent_name: older.agent_name }) });

    // Before `migrate`, hooks fail open (the schema is older than the bins) and say so in their log.
    expect(JSON.parse(ok(seed()))).toEqual({ should_resume: false, reason: 'error' });
    expect(readFileSync(join(p, '.claude', 'logs', 'pre_delegate.log'), 'utf8')).toContain('agent-session migrate');
    expect(ok(cli(['migrate']))).toContain('version 1 → 3');

    // Unassigned: no project resumes it, `list` says it is there, `--all-projects` shows it.
    expect(JSON.parse(ok(seed()))).toEqual({ should_resume: false, reason: 'no_existing_session' });
    const listed = cli(['list', '--json']);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    expect(listed.stderr).toMatch(/^note: 1 session belongs to no project .*adopt --unassigned/);
    const every = JSON.parse(ok(cli(['list', '--json', '--all-projects'])));
    expect(every).toEqual([
      expect.objectContaining({ agent_id: 'older-1', project: null, resume_reason: 'unassigned' }),
    ]);
    expect(cli(['should-resume', 'older-1']).stdout).toBe('false unassigned\n');
    expect(JSON.parse(ok(cli(['get', 'older-1'])))).toEqual(older);

    // Adopted by the project, it is that project's: resumed, as it was.
    expect(JSON.parse(ok(cli(['adopt', '--unassigned', '--json'])))).toEqual({
      project: A.name,
      adopted: ['older-1'],
      already: [],
    });
    expect(JSON.parse(ok(seed()))).toMatchObject({
      should_resume: true,
      agent_id: 'older-1',
      resume_metadata: { metadata: { plan: 'older plan' } },
    });
    expect((await db.sql(`SELECT project FROM ${s}.sessions WHERE id = 'older-1'`))[0]).toEqual({ project: A.name });
  }
});

describe('an older file store', () => {
  /** Writes `state` as an older agent-session did: `<root>/<id>/state.json`, no index marker. */
  function plant(root: string, state: SessionState): string {
    const file = join(root, state.agent_id, 'state.json');
    mkdirSync(join(root, state.agent_id), { recursive: true });
    writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
    return file;
  }

  it("in a project's own folder: its sessions are that project's, resumed, and their files stay as they were", () => {
    const p = gitRepository(folder(), A.remote);
    const file = plant(join(p, '.claude', 'session'), olderSession('older-2'));
    const env = { CLAUDE_PROJECT_DIR: p };
    const answer = run(BIN.preDelegate, [], {
      cwd: p,
      env,
      input: JSON.stringify({ agent_name: 'terraform-architect' }),
    });
    expect(JSON.parse(ok(answer))).toMatchObject({ should_resume: true, agent_id: 'older-2' });
    expect(JSON.parse(ok(run(BIN.cli, ['get', 'older-2'], { cwd: p, env })))).toMatchObject({ project: A.name });
    // The resume was written, as an older version would read it: no project, schema_version 1.
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.schema_version).toBe(1);
    expect(written).not.toHaveProperty('project');
    expect(written.history.at(-1)).toMatchObject({ event: 'resume' });
  });

  it('elsewhere (AGENT_SESSION_DIR): its sessions are unassigned until a project adopts them', () => {
    const p = gitRepository(folder(), B.remote);
    const shared = join(base, 'older-shared');
    const file = plant(shared, olderSession('older-3'));
    const env = { AGENT_SESSION_DIR: shared, CLAUDE_PROJECT_DIR: p };
    const seed = () =>
      run(BIN.preDelegate, [], { cwd: p, env, input: JSON.stringify({ agent_name: 'terraform-architect' }) });
    expect(JSON.parse(ok(seed()))).toEqual({ should_resume: false, reason: 'no_existing_session' });
    expect(run(BIN.cli, ['list'], { cwd: p, env }).stderr).toMatch(/^note: 1 session belongs to no project/);
    expect(ok(run(BIN.cli, ['adopt', 'older-3'], { cwd: p, env }))).toBe(
      `Adopted 1 session into the project ${B.name}: older-3\n`,
    );
    expect(JSON.parse(ok(seed()))).toMatchObject({ should_resume: true, agent_id: 'older-3' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ schema_version: 5, project: B.name });
  });
});

describe('the project of a folder, as `config` shows it', () => {
  it('the git remote origin, else the folder; a configured name wins; a subfolder of a repository is its own', () => {
    const repo = gitRepository(folder(), A.remote);
    const config = (cwd: string, env: Record<string, string> = {}) =>
      JSON.parse(ok(run(BIN.cli, ['config', '--json'], { cwd, env }))).project;
    expect(config(repo)).toEqual({ name: A.name, source: { kind: 'remote', repository: A.name } });
    const inner = join(repo, 'services', 'api');
    mkdirSync(join(inner, '.claude'), { recursive: true });
    expect(config(inner).name).toBe(`${A.name}//services/api`);
    const plain = folder();
    expect(config(plain)).toEqual({ name: `path:${realpathSync(plain)}`, source: { kind: 'path' } });
    expect(config(plain, { AGENT_SESSION_PROJECT: 'acme/shared' })).toEqual({
      name: 'acme/shared',
      source: { kind: 'configured' },
    });
    writeFileSync(join(plain, '.claude', 'agent-session.json'), JSON.stringify({ project: 'acme/from-file' }));
    expect(config(plain).name).toBe('acme/from-file');
    expect(ok(run(BIN.cli, ['config'], { cwd: repo, env: {} }))).toContain(
      `\nProject:     ${A.name} (the git remote origin)\n`,
    );
    const refused = run(BIN.cli, ['list'], { cwd: plain, env: { AGENT_SESSION_PROJECT: ' padded' } });
    expect(refused.status).toBe(2);
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe("a project's own folder of files, used by a call named otherwise", () => {
  it("keeps the named call's sessions apart: their files name their project, the folder's own calls skip them", () => {
    const p = gitRepository(folder(), A.remote);
    const named = { CLAUDE_PROJECT_DIR: p, AGENT_SESSION_PROJECT: 'acme/elsewhere' };
    const id = ok(run(BIN.cli, ['create', '--agent', 'planner', '--purpose', 'p'], { cwd: p, env: named })).trim();
    ok(run(BIN.cli, ['update', id, '--phase', 'planning'], { cwd: p, env: named }));
    expect(JSON.parse(readFileSync(join(p, '.claude', 'session', id, 'state.json'), 'utf8'))).toMatchObject({
      project: 'acme/elsewhere',
      schema_version: 5,
    });
    const ask = (env: Record<string, string>) =>
      JSON.parse(ok(run(BIN.preDelegate, [], { cwd: p, env, input: '{"agent_name":"planner"}' })));
    expect(ask({ CLAUDE_PROJECT_DIR: p })).toEqual({ should_resume: false, reason: 'no_existing_session' });
    expect(ask(named)).toMatchObject({ should_resume: true, agent_id: id });
  });
});

describeWithDatabase('moving sessions between stores keeps their project', (db) => {
  afterEach(() => db.truncate());

  it('copy from a project\u2019s own folder of files (which names no project) and back; export and import carry it', () => {
    const p = gitRepository(folder(), A.remote);
    const q = gitRepository(folder(), B.remote);
    const files = (cwd: string, args: readonly string[]) =>
      run(BIN.cli, args, { cwd, env: { CLAUDE_PROJECT_DIR: cwd } });
    const id = ok(files(p, ['create', '--agent', 'planner', '--purpose', 'move'])).trim();
    ok(files(p, ['update', id, '--phase', 'approval']));
    const own = join(p, '.claude', 'session');
    expect(readFileSync(join(own, id, 'state.json'), 'utf8')).not.toContain('project');
    // To the database: the row names the project of the folder the files were in.
    ok(
      run(BIN.cli, ['copy', '--from', own, '--to', db.url, '--json'], {
        cwd: q,
        env: { AGENT_SESSION_DATABASE_SCHEMA: db.schema },
      }),
    );
    const pg = { AGENT_SESSION_DATABASE_URL: db.url, AGENT_SESSION_DATABASE_SCHEMA: db.schema };
    const row = JSON.parse(ok(run(BIN.cli, ['get', id], { cwd: q, env: pg })));
    expect(row.project).toBe(A.name);
    const seed = (cwd: string) =>
      JSON.parse(
        ok(
          run(BIN.preDelegate, [], { cwd, env: { ...pg, CLAUDE_PROJECT_DIR: cwd }, input: '{"agent_name":"planner"}' }),
        ),
      );
    expect(seed(q)).toEqual({ should_resume: false, reason: 'no_existing_session' });
    // Back, into B's own folder: the session stays A's (its file names it), so B still does not resume it.
    const back = join(q, '.claude', 'session');
    ok(
      run(BIN.cli, ['copy', '--from', db.url, '--to', back], {
        cwd: q,
        env: { AGENT_SESSION_DATABASE_SCHEMA: db.schema },
      }),
    );
    expect(JSON.parse(readFileSync(join(back, id, 'state.json'), 'utf8'))).toMatchObject({ project: A.name });
    expect(
      JSON.parse(
        ok(run(BIN.preDelegate, [], { cwd: q, env: { CLAUDE_PROJECT_DIR: q }, input: '{"agent_name":"planner"}' })),
      ),
    ).toEqual({
      should_resume: false,
      reason: 'no_existing_session',
    });
    // An export names the project; importing it elsewhere keeps it.
    const exported = JSON.parse(ok(files(p, ['export', id])));
    expect(exported.session.project).toBe(A.name);
    const file = join(base, `export-${id}.json`);
    writeFileSync(file, JSON.stringify(exported));
    const imported = ok(run(BIN.cli, ['import', file, '--new-id', '--json'], { cwd: q, env: pg }));
    expect(JSON.parse(imported)).toMatchObject({ project: A.name });
    expect(seed(p)).toMatchObject({ should_resume: true });
  });
});
