// `agent-session config` says what the hooks will do: with an invalid configuration that names a database they fail
// open (no store at all), not "files in …" (issue 20 #9); an empty AGENT_SESSION_* variable counts as unset, and
// config lists the ones it ignored (issue 20 #17a). No database is needed: nothing connects.
import { BIN, projectMaker, run, tempDir } from '../helpers';

const project = projectMaker(tempDir());

describe('config with invalid settings', () => {
  const refusedUrl = 'postgres://agents:50%off@db.example/agents';

  it('says the hooks fail open, with no store, when the refused settings name a database; and they do', () => {
    const cwd = project();
    const env = { CLAUDE_PROJECT_DIR: cwd, AGENT_SESSION_DATABASE_URL: refusedUrl };
    const json = run(BIN.cli, ['config', '--json'], { cwd, env });
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      store: { kind: 'none' },
      hooks: 'fail_open',
      error: { code: 'E_USAGE' },
    });
    const text = run(BIN.cli, ['config'], { cwd, env });
    expect(text.status).toBe(2);
    expect(text.stdout).not.toMatch(/files in|defaults below/);
    expect(text.stdout).not.toContain('50%off');
    const hook = run(BIN.preDelegate, [], { cwd, env, input: '{"agent_name":"planner"}' });
    expect(JSON.parse(hook.stdout)).toMatchObject({ should_resume: false, reason: 'error' });
  });

  it('says the hooks run with the defaults (the file store) when the invalid settings name no database', () => {
    const cwd = project();
    const json = run(BIN.cli, ['config', '--json'], {
      cwd,
      env: { CLAUDE_PROJECT_DIR: cwd, AGENT_SESSION_MAX_ERRORS: 'three' },
    });
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ store: { kind: 'files' }, hooks: 'defaults' });
  });

  it('says the hooks run as configured when only --database-url is refused (the hooks never read it)', () => {
    const cwd = project();
    const json = run(BIN.cli, ['config', '--json', '--database-url', refusedUrl], {
      cwd,
      env: { CLAUDE_PROJECT_DIR: cwd },
    });
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ hooks: 'as_configured' });
  });
});

describe('config and empty variables', () => {
  it('counts an empty AGENT_SESSION_* variable as unset and lists it among the ignored ones', () => {
    const cwd = project();
    const env = { CLAUDE_PROJECT_DIR: cwd, AGENT_SESSION_DATABASE_SCHEMA: '', AGENT_SESSION_LOG_DIR: ' ' };
    const json = run(BIN.cli, ['config', '--json'], { cwd, env });
    expect(json.status).toBe(0);
    const shown = JSON.parse(json.stdout);
    expect(shown.ignored_variables).toEqual(['AGENT_SESSION_DATABASE_SCHEMA', 'AGENT_SESSION_LOG_DIR']);
    expect(shown.settings.database_schema).toEqual({ value: 'agent_session', source: { kind: 'default' } });
    const text = run(BIN.cli, ['config'], { cwd, env });
    expect(text.stdout).toContain('AGENT_SESSION_DATABASE_SCHEMA');
  });
});
