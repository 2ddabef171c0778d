import {
  CONFIG_KEYS,
  continuationSettingsOf,
  DEFAULT_CONFIG,
  keysNeedingTrust,
  logs,
  parseConfigFile,
  parseSettings,
  resolveConfig,
  untrustedLine,
  WORKSPACE_TRUST,
  type Config,
  type TrustVerdict,
} from '../../../src/core/config';
import { type SessionError } from '../../../src/core/errors';

/** The workspace file's content is trusted (app/trust.ts would say so). */
const TRUSTED = { trust: () => 'trusted' as const };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as SessionError).code;
  }
  return undefined;
}

describe('config', () => {
  it('uses the defaults without a file or variables', () => {
    const config = resolveConfig({ path: '/p/agent-session.json', found: false }, {});
    expect(config.values).toEqual(DEFAULT_CONFIG);
    expect(config.values.history_cap).toBe(200);
    expect(Object.values(config.sources).every((source) => source.kind === 'default')).toBe(true);
    expect(config.file).toEqual({ path: '/p/agent-session.json', found: false });
  });

  it('layers defaults ← file ← environment and names each source', () => {
    const config = resolveConfig(
      { path: '/p/c.json', found: true, raw: { resume_timeout_minutes: 10, history_cap: 50, log_level: 'warn' } },
      { AGENT_SESSION_HISTORY_CAP: '7', AGENT_SESSION_MAX_ERRORS: '5' },
    );
    const expected = {
      resume_timeout_minutes: 10,
      max_errors: 5,
      cleanup_hours: 24,
      max_sessions: null,
      history_cap: 7,
      log_level: 'warn',
    };
    expect(config.values).toEqual({
      ...expected,
      log_max_bytes: 1_048_576,
      database_url: null,
      database_schema: 'agent_session',
      project: null,
      permission_inbox: 'background',
      permission_grant_ttl_hours: 24,
      continue_agents: true,
      continue_max_transcript_bytes: 524_288,
      notify: null,
    });
    expect(config.sources.resume_timeout_minutes).toEqual({ kind: 'file', path: '/p/c.json' });
    expect(config.sources.history_cap).toEqual({ kind: 'env', variable: 'AGENT_SESSION_HISTORY_CAP' });
    expect(config.sources.max_errors).toEqual({ kind: 'env', variable: 'AGENT_SESSION_MAX_ERRORS' });
    expect(config.sources.cleanup_hours).toEqual({ kind: 'default' });
  });

  it('takes a project name from the file, and AGENT_SESSION_PROJECT over it', () => {
    const file = { path: '/p/c.json', found: true, raw: { project: 'acme/api' } };
    expect(resolveConfig(file, {}).values.project).toBe('acme/api');
    expect(resolveConfig(file, {}).sources.project).toEqual({ kind: 'file', path: '/p/c.json' });
    const env = resolveConfig(file, { AGENT_SESSION_PROJECT: 'acme/web' });
    expect(env.values.project).toBe('acme/web');
    expect(env.sources.project).toEqual({ kind: 'env', variable: 'AGENT_SESSION_PROJECT' });
    expect(resolveConfig({ path: 'x', found: false }, {}).values.project).toBeNull();
  });

  it('takes the permission settings from the file, and their variables over it', () => {
    const file = { path: '/p/c.json', found: true, raw: { permission_inbox: 'always', permission_grant_ttl_hours: 2 } };
    expect(resolveConfig(file, {}).values).toMatchObject({ permission_inbox: 'always', permission_grant_ttl_hours: 2 });
    const env = resolveConfig(file, {
      AGENT_SESSION_PERMISSION_INBOX: 'off',
      AGENT_SESSION_PERMISSION_GRANT_TTL_HOURS: '0.5',
    });
    expect(env.values).toMatchObject({ permission_inbox: 'off', permission_grant_ttl_hours: 0.5 });
    expect(codeOf(() => resolveConfig(file, { AGENT_SESSION_PERMISSION_INBOX: 'sometimes' }))).toBe('E_USAGE');
  });

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads AGENT_SESSION_CONTINUE_AGENTS=%s as %s', (raw, value) => {
    expect(
      resolveConfig({ path: 'x', found: false }, { AGENT_SESSION_CONTINUE_AGENTS: raw }).values.continue_agents,
    ).toBe(value);
  });

  it.each([
    ['AGENT_SESSION_CONTINUE_AGENTS', 'yes'],
    ['AGENT_SESSION_CONTINUE_AGENTS', 'constructor'],
    ['AGENT_SESSION_CONTINUE_MAX_TRANSCRIPT_BYTES', '0'],
    ['AGENT_SESSION_CONTINUE_MAX_TRANSCRIPT_BYTES', '1.5'],
  ])('refuses %s=%s (E_USAGE)', (variable, raw) => {
    expect(codeOf(() => resolveConfig({ path: 'x', found: false }, { [variable]: raw }))).toBe('E_USAGE');
  });

  it('takes the continuation settings from the file', () => {
    const file = {
      path: '/p/c.json',
      found: true,
      raw: { continue_agents: false, continue_max_transcript_bytes: 1000 },
    };
    expect(continuationSettingsOf(resolveConfig(file, {}).values)).toEqual({
      enabled: false,
      maxTranscriptBytes: 1000,
    });
    expect(codeOf(() => resolveConfig({ ...file, raw: { continue_agents: 'no' } }, {}))).toBe('E_USAGE');
  });

  it('takes notify from the file, AGENT_SESSION_NOTIFY over it, and refuses a blank one', () => {
    const file = { path: '/p/c.json', found: true, raw: { notify: 'notify-send agent-session' } };
    expect(resolveConfig(file, {}, TRUSTED).values.notify).toBe('notify-send agent-session');
    const env = resolveConfig(file, { AGENT_SESSION_NOTIFY: ' https://hooks.example/x ' });
    expect(env.values.notify).toBe('https://hooks.example/x');
    expect(env.sources.notify).toEqual({ kind: 'env', variable: 'AGENT_SESSION_NOTIFY' });
    expect(codeOf(() => resolveConfig({ path: 'x', found: true, raw: { notify: '  ' } }, {}))).toBe('E_USAGE');
    expect(codeOf(() => resolveConfig({ path: 'x', found: true, raw: { notify: 3 } }, {}))).toBe('E_USAGE');
  });

  // Issue 44 item 2: several targets.
  it('takes a list of notify targets from the file, and from the variable as a JSON array', () => {
    const list = ['https://hooks.example/x', 'notify-send agent-session "$AGENT_SESSION_NOTIFY_TEXT"'];
    expect(resolveConfig({ path: 'x', found: true, raw: { notify: list } }, {}, TRUSTED).values.notify).toEqual(list);
    // The user's own file: no trust asked.
    const user = { path: '/home/u/.config/agent-session/config.json', found: true, raw: { notify: list } };
    expect(resolveConfig({ path: 'x', found: false }, {}, { user }).values.notify).toEqual(list);
    const env = resolveConfig({ path: 'x', found: false }, { AGENT_SESSION_NOTIFY: ` ${JSON.stringify(list)} ` });
    expect(env.values.notify).toEqual(list);
    // A command that starts with `[` and is no JSON array of texts is one target.
    for (const one of ['[ -x /usr/bin/notify-send ] && notify-send x', '[1, 2]'])
      expect(resolveConfig({ path: 'x', found: false }, { AGENT_SESSION_NOTIFY: one }).values.notify).toBe(one);
  });

  it.each<[string, unknown]>([
    ['an empty list', []],
    ['a blank target in a list', ['notify-send x', ' ']],
    ['a list of numbers', [1]],
    ['a list in a list', [['x']]],
  ])('refuses %s in the file (E_USAGE), and as a variable', (_name, notify) => {
    expect(codeOf(() => resolveConfig({ path: 'x', found: true, raw: { notify } }, {}))).toBe('E_USAGE');
    const variable = JSON.stringify(notify);
    const asVariable = codeOf(() => resolveConfig({ path: 'x', found: false }, { AGENT_SESSION_NOTIFY: variable }));
    // A variable that is no JSON array of texts is one command (`[1]`, `[["x"]]`): only a list of texts is judged.
    expect(asVariable).toBe(
      Array.isArray(notify) && notify.every((item) => typeof item === 'string') ? 'E_USAGE' : undefined,
    );
  });

  it('ignores empty variables', () => {
    expect(resolveConfig({ path: 'x', found: false }, { AGENT_SESSION_LOG_LEVEL: ' ' }).values.log_level).toBe('info');
  });

  it.each([
    [{ history_cap: 0 }],
    [{ history_cap: 2.5 }],
    [{ max_sessions: 0 }],
    [{ max_sessions: 1.5 }],
    [{ max_sessions: '50' }],
    [{ max_errors: '3' }],
    [{ resume_timeout_minutes: -1 }],
    [{ cleanup_hours: -1 }],
    [{ log_level: 'loud' }],
    [{ histroy_cap: 10 }],
    [{ database_url: 'mysql://u:p@h/db' }],
    [{ database_url: 42 }],
    [{ database_schema: 'Bad-Name' }],
    [{ project: '' }],
    [{ project: ' padded ' }],
    [{ project: 'line\nbreak' }],
    [{ project: 'x'.repeat(201) }],
    [{ project: 42 }],
    [{ permission_inbox: 'sometimes' }],
    [{ permission_grant_ttl_hours: 0 }],
    [{ permission_grant_ttl_hours: '24' }],
    [[]],
    ['text'],
    [null],
  ])('refuses the file content %p with E_USAGE', (raw) => {
    expect(codeOf(() => parseConfigFile(raw, '/p/c.json'))).toBe('E_USAGE');
  });

  it('names the key and the file in the message', () => {
    expect(() => parseConfigFile({ history_cap: 0 }, '/p/c.json')).toThrow(/history_cap.*\/p\/c\.json/);
  });

  it.each([
    ['AGENT_SESSION_HISTORY_CAP', 'many'],
    ['AGENT_SESSION_HISTORY_CAP', '0'],
    ['AGENT_SESSION_MAX_ERRORS', '1.5'],
    ['AGENT_SESSION_RESUME_TIMEOUT_MINUTES', 'Infinity'],
    ['AGENT_SESSION_CLEANUP_HOURS', '-2'],
    ['AGENT_SESSION_LOG_LEVEL', 'verbose'],
    ['AGENT_SESSION_HISTORY_CAP', '0x10'],
    ['AGENT_SESSION_CLEANUP_HOURS', '1e3'],
    ['AGENT_SESSION_PROJECT', ' padded'],
    ['AGENT_SESSION_PROJECT', 'bidi\u202eoverride'],
  ])('refuses %s=%s with E_USAGE', (variable, value) => {
    expect(codeOf(() => resolveConfig({ path: 'x', found: false }, { [variable]: value }))).toBe('E_USAGE');
  });

  it('shows a quoted number as the string it is', () => {
    expect(() => parseConfigFile({ history_cap: '10' }, '/p/c.json')).toThrow(/got `"10"`/);
  });

  it('settings given in code pass the same checks, and only the keys given count', () => {
    expect(codeOf(() => parseSettings({ history_cap: 0 }, 'code'))).toBe('E_USAGE');
    expect(codeOf(() => parseSettings({ history_cap: -5 }, 'code'))).toBe('E_USAGE');
    expect(codeOf(() => parseSettings({ histroy_cap: 5 }, 'code'))).toBe('E_USAGE');
    expect(parseSettings({ history_cap: 5, max_errors: undefined }, 'code')).toEqual({ history_cap: 5 });
  });

  it('selects the PostgreSQL store from the file or the environment (which wins), and checks the schema name', () => {
    const file = { path: '/p/c.json', found: true, raw: { database_url: 'postgres://u:f1le@h/db' } };
    expect(resolveConfig(file, {}, TRUSTED).values.database_url).toBe('postgres://u:f1le@h/db');
    const env = { AGENT_SESSION_DATABASE_URL: ' postgresql://h/team ', AGENT_SESSION_DATABASE_SCHEMA: 'team_a' };
    const config = resolveConfig(file, env);
    expect(config.values.database_url).toBe('postgresql://h/team');
    expect(config.values.database_schema).toBe('team_a');
    expect(config.sources.database_url).toEqual({ kind: 'env', variable: 'AGENT_SESSION_DATABASE_URL' });
  });

  it.each([
    [{ AGENT_SESSION_DATABASE_URL: 'http://u:s3cret@h/db' }],
    [{ AGENT_SESSION_DATABASE_URL: 's3cret' }],
    [{ AGENT_SESSION_DATABASE_SCHEMA: 'public; drop' }],
  ])('refuses the variables %p with E_USAGE, never echoing a password', (env) => {
    let message = '';
    try {
      resolveConfig({ path: 'x', found: false }, env);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(codeOf(() => resolveConfig({ path: 'x', found: false }, env))).toBe('E_USAGE');
    expect(message).toContain(Object.keys(env)[0]!);
    expect(message).not.toContain('s3cret');
  });

  // Issue 20 #11: a time span past what a Date can hold broke every display ("yes,  left", "of 0 seconds allowed").
  it.each([
    [{ resume_timeout_minutes: 1e300 }],
    [{ resume_timeout_minutes: 5_256_001 }],
    [{ cleanup_hours: 1e300 }],
    [{ cleanup_hours: 87_601 }],
  ])('refuses the time span %p, past ten years, with E_USAGE', (raw) => {
    expect(codeOf(() => parseConfigFile(raw, '/p/c.json'))).toBe('E_USAGE');
  });

  it('accepts time spans up to ten years', () => {
    expect(parseConfigFile({ resume_timeout_minutes: 5_256_000, cleanup_hours: 87_600 }, '/p/c.json')).toEqual({
      resume_timeout_minutes: 5_256_000,
      cleanup_hours: 87_600,
    });
  });

  it.each([
    ['AGENT_SESSION_RESUME_TIMEOUT_MINUTES', '99999999999'],
    ['AGENT_SESSION_RESUME_TIMEOUT_MINUTES', '5256001'],
    ['AGENT_SESSION_CLEANUP_HOURS', '87601'],
  ])('refuses %s=%s (past ten years) with E_USAGE', (variable, value) => {
    expect(codeOf(() => resolveConfig({ path: 'x', found: false }, { [variable]: value }))).toBe('E_USAGE');
  });

  it('names a number too large for JSON (1e309 reads as Infinity) as such, not as `null`', () => {
    let message = '';
    try {
      parseConfigFile(JSON.parse('{"resume_timeout_minutes": 1e309}'), '/p/c.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('resume_timeout_minutes');
    expect(message).not.toContain('`null`');
    expect(message).toContain('Infinity');
  });

  // Issue 20 #17a: one rule for every AGENT_SESSION_* variable: empty (or blank) counts as unset (`config` lists
  // the ones it ignored: tests/e2e/postgres-cli.test.ts).
  it('treats an empty or blank variable as unset, the schema as every other', () => {
    const env = { AGENT_SESSION_DATABASE_SCHEMA: '', AGENT_SESSION_DATABASE_URL: ' ', AGENT_SESSION_HISTORY_CAP: '' };
    const config = resolveConfig({ path: 'x', found: false }, env);
    expect(config.values).toEqual(DEFAULT_CONFIG);
    expect(Object.values(config.sources).every((source) => source.kind === 'default')).toBe(true);
  });

  it('filters log lines by level', () => {
    expect(logs('info', 'info')).toBe(true);
    expect(logs('warn', 'info')).toBe(false);
    expect(logs('warn', 'error')).toBe(true);
    expect(logs('silent', 'error')).toBe(false);
    expect(logs('debug', 'info')).toBe(true);
  });
});

// Issue 40 (2): what the workspace file sets that executes, connects or loosens a policy waits for the user's trust.
describe('the workspace file and the user’s trust', () => {
  const file = (raw: object) => ({ path: '/p/.claude/agent-session.json', found: true, raw });
  const user = (raw: object) => ({ user: { path: '/home/u/.config/agent-session/config.json', found: true, raw } });

  it('names a rule for every setting', () => {
    expect(Object.keys(WORKSPACE_TRUST).sort()).toEqual([...CONFIG_KEYS].sort());
  });

  it.each<[string, Partial<Config>, boolean, string[]]>([
    ['notify, always', { notify: 'id' }, false, ['notify']],
    [
      'a database and its schema, always',
      { database_url: 'postgres://h/d', database_schema: 's' },
      false,
      ['database_url', 'database_schema'],
    ],
    ['a lower resume window and fewer errors: free', { resume_timeout_minutes: 5, max_errors: 1 }, false, []],
    ['the same values: free', { resume_timeout_minutes: 30, permission_grant_ttl_hours: 24 }, false, []],
    [
      'a longer resume window, more errors',
      { resume_timeout_minutes: 5256000, max_errors: 99 },
      false,
      ['resume_timeout_minutes', 'max_errors'],
    ],
    ['a longer-lived grant', { permission_grant_ttl_hours: 48 }, false, ['permission_grant_ttl_hours']],
    [
      'a larger continued transcript',
      { continue_max_transcript_bytes: 10_000_000 },
      false,
      ['continue_max_transcript_bytes'],
    ],
    ['continuation switched off: free', { continue_agents: false }, false, []],
    ['the project on the file store: free', { project: 'x' }, false, []],
    ['the project with a database named', { project: 'x' }, true, ['project']],
    [
      'logs, history, cleanup, the session cap, the inbox: free',
      { log_level: 'debug', history_cap: 5, cleanup_hours: 1, max_sessions: 3, permission_inbox: 'always' },
      false,
      [],
    ],
  ])('%s', (_label, fromFile, database, keys) => {
    expect(keysNeedingTrust(fromFile, DEFAULT_CONFIG, database)).toEqual(keys);
  });

  it('a switch the user turned off is turned on again only with trust', () => {
    const below = { ...DEFAULT_CONFIG, continue_agents: false };
    expect(keysNeedingTrust({ continue_agents: true }, below, false)).toEqual(['continue_agents']);
  });

  it('untrusted: those settings are left out and named, every other one applies; the trust is not even asked for a file without them', () => {
    const asked: string[] = [];
    const trust = (verdict: TrustVerdict) => () => (asked.push(verdict), verdict);
    const hostile = file({
      notify: 'id > /tmp/x',
      database_url: 'postgres://exfil@h/db',
      history_cap: 7,
      resume_timeout_minutes: 5256000,
    });
    const config = resolveConfig(hostile, {}, { trust: trust('untrusted') });
    expect(config.values).toMatchObject({
      notify: null,
      database_url: null,
      history_cap: 7,
      resume_timeout_minutes: 30,
    });
    expect(config.untrusted).toEqual({
      path: hostile.path,
      keys: ['resume_timeout_minutes', 'database_url', 'notify'],
      changed: false,
    });
    expect(untrustedLine(config.untrusted!)).toBe(
      "ignored resume_timeout_minutes, database_url, notify of /p/.claude/agent-session.json (not trusted); run 'agent-session trust' to apply them (docs/security.md)",
    );
    expect(resolveConfig(hostile, {}).values.notify).toBeNull();
    expect(resolveConfig(hostile, {}, { trust: trust('changed') }).untrusted?.changed).toBe(true);
    asked.length = 0;
    expect(resolveConfig(file({ history_cap: 7 }), {}, { trust: trust('untrusted') }).untrusted).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('trusted: they apply, marked trusted', () => {
    const config = resolveConfig(file({ notify: 'id', history_cap: 7 }), {}, TRUSTED);
    expect(config.values.notify).toBe('id');
    expect(config.sources.notify).toEqual({ kind: 'file', path: '/p/.claude/agent-session.json', trusted: true });
    expect(config.sources.history_cap).toEqual({ kind: 'file', path: '/p/.claude/agent-session.json' });
    expect(config.untrusted).toBeUndefined();
  });

  it('the user’s own file applies without trust, under the workspace file, and is what a raise is measured against', () => {
    const mine = user({ notify: 'notify-send', resume_timeout_minutes: 600, database_url: 'postgres://team@h/db' });
    const config = resolveConfig(file({ resume_timeout_minutes: 120, project: 'other/repo' }), {}, mine);
    expect(config.values).toMatchObject({ notify: 'notify-send', resume_timeout_minutes: 120, project: null });
    expect(config.sources.notify).toEqual({ kind: 'user', path: '/home/u/.config/agent-session/config.json' });
    // A database named by the user's file: the workspace's `project` picks the team's sessions, so it waits.
    expect(config.untrusted?.keys).toEqual(['project']);
  });

  it('a variable setting the key anyway: nothing is said to be ignored', () => {
    const config = resolveConfig(file({ notify: 'id' }), { AGENT_SESSION_NOTIFY: 'mine' });
    expect(config.values.notify).toBe('mine');
    expect(config.untrusted).toBeUndefined();
  });
});
