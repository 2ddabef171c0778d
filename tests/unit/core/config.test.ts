import { DEFAULT_CONFIG, logs, parseConfigFile, parseSettings, resolveConfig } from '../../../src/core/config';
import { type SessionError } from '../../../src/core/errors';

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
      history_cap: 7,
      log_level: 'warn',
    };
    expect(config.values).toEqual({ ...expected, log_max_bytes: 1_048_576 });
    expect(config.sources.resume_timeout_minutes).toEqual({ kind: 'file', path: '/p/c.json' });
    expect(config.sources.history_cap).toEqual({ kind: 'env', variable: 'AGENT_SESSION_HISTORY_CAP' });
    expect(config.sources.max_errors).toEqual({ kind: 'env', variable: 'AGENT_SESSION_MAX_ERRORS' });
    expect(config.sources.cleanup_hours).toEqual({ kind: 'default' });
  });

  it('ignores empty variables', () => {
    expect(resolveConfig({ path: 'x', found: false }, { AGENT_SESSION_LOG_LEVEL: ' ' }).values.log_level).toBe('info');
  });

  it.each([
    [{ history_cap: 0 }],
    [{ history_cap: 2.5 }],
    [{ max_errors: '3' }],
    [{ resume_timeout_minutes: -1 }],
    [{ cleanup_hours: -1 }],
    [{ log_level: 'loud' }],
    [{ histroy_cap: 10 }],
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

  it('filters log lines by level', () => {
    expect(logs('info', 'info')).toBe(true);
    expect(logs('warn', 'info')).toBe(false);
    expect(logs('warn', 'error')).toBe(true);
    expect(logs('silent', 'error')).toBe(false);
    expect(logs('debug', 'info')).toBe(true);
  });
});
