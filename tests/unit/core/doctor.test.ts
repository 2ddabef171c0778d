import {
  doctorExit,
  hookErrorsCheck,
  nodeChecks,
  recentHookErrors,
  relayCheck,
  storeCheck,
  trustCheck,
  wiringChecks,
  type SettingsFacts,
  type WiringFacts,
} from '../../../src/core/doctor';

const LOCAL = '/p/.claude/settings.local.json';
const SHARED = '/p/.claude/settings.json';
const EVENTS = ['SubagentStart', 'SubagentStop', 'Stop'];

function read(path: string, extra: Partial<Extract<SettingsFacts, { state: 'read' }>> = {}): SettingsFacts {
  return { path, state: 'read', events: [], missingBins: [], plugin: false, ...extra };
}

function wiring(files: SettingsFacts[], extra: Partial<WiringFacts> = {}): [string, string][] {
  const checks = wiringChecks({ files, expectedEvents: EVENTS, marketplaceKnown: true, otherHosts: [], ...extra });
  return checks.map((c) => [c.name, c.status]);
}

describe('wiringChecks', () => {
  it.each<[string, SettingsFacts[], Partial<WiringFacts>, [string, string][]]>([
    [
      'nothing wired',
      [
        { path: LOCAL, state: 'absent' },
        { path: SHARED, state: 'absent' },
      ],
      {},
      [['wiring', 'fail']],
    ],
    [
      'only another host',
      [{ path: LOCAL, state: 'absent' }],
      { otherHosts: ['Codex (/p/.codex/hooks.json)'] },
      [['wiring', 'ok']],
    ],
    ["init's hooks, every event", [read(LOCAL, { events: EVENTS }), read(SHARED)], {}, [['wiring', 'ok']]],
    ["init's hooks, an event missing", [read(LOCAL, { events: ['SubagentStart', 'Stop'] })], {}, [['wiring', 'warn']]],
    [
      "init's hooks, a bin gone",
      [read(LOCAL, { events: EVENTS, missingBins: ['/gone/pre-delegate.cjs'] })],
      {},
      [['wiring', 'fail']],
    ],
    ['the plugin alone', [read(SHARED, { plugin: true })], {}, [['wiring', 'ok']]],
    [
      'the plugin, marketplace unknown',
      [read(SHARED, { plugin: true })],
      { marketplaceKnown: false },
      [['wiring', 'warn']],
    ],
    [
      'both',
      [read(LOCAL, { events: EVENTS }), read(SHARED, { plugin: true })],
      {},
      [
        ['double-wiring', 'warn'],
        ['wiring', 'ok'],
      ],
    ],
    ['a broken file, nothing else', [{ path: LOCAL, state: 'broken', problem: 'line 1' }], {}, [['settings', 'fail']]],
    [
      'a broken file beside the plugin',
      [{ path: LOCAL, state: 'broken', problem: 'line 1' }, read(SHARED, { plugin: true })],
      {},
      [
        ['settings', 'fail'],
        ['wiring', 'ok'],
      ],
    ],
  ])('%s', (_name, files, extra, expected) => {
    expect(wiring(files, extra)).toEqual(expected);
  });

  it('names both files of a double wiring, and says what to run for each choice', () => {
    const [double] = wiringChecks({
      files: [read(LOCAL, { events: EVENTS }), read(SHARED, { plugin: true })],
      expectedEvents: EVENTS,
      marketplaceKnown: true,
      otherHosts: [],
    });
    expect(double!.text).toContain(LOCAL);
    expect(double!.text).toContain(SHARED);
    expect(double!.fix).toContain('init --uninstall');
  });
});

describe('nodeChecks', () => {
  it.each([
    ['v20.0.0', 'ok'],
    ['v24.1.2', 'ok'],
    ['v18.20.4', 'fail'],
    [null, 'fail'],
  ] as const)('%s: %s', (version, status) => {
    expect(nodeChecks([{ source: 'the hooks', node: '/usr/bin/node', version }])[0]!.status).toBe(status);
  });

  it('one check per node', () => {
    expect(nodeChecks([])).toEqual([]);
    expect(
      nodeChecks([
        { source: 'the hooks', node: '/a/node', version: 'v22.1.0' },
        { source: 'the plugin (node on PATH)', node: 'node', version: null },
      ]).map((c) => c.status),
    ).toEqual(['ok', 'fail']);
  });
});

describe('storeCheck', () => {
  it.each([
    [{ state: 'config-invalid', problem: 'x' }, 'fail'],
    [{ state: 'absent', where: '/p/.claude/session' }, 'ok'],
    [{ state: 'unreadable', where: 'PostgreSQL', problem: 'ECONNREFUSED' }, 'fail'],
    [{ state: 'open', where: '/s', sessions: 3, writable: true }, 'ok'],
    [{ state: 'open', where: 'PostgreSQL', sessions: 3, writable: null }, 'ok'],
    [{ state: 'open', where: '/s', sessions: 3, writable: false }, 'fail'],
  ] as const)('%j: %s', (facts, status) => {
    expect(storeCheck(facts).status).toBe(status);
  });

  it('counts the sessions', () => {
    expect(storeCheck({ state: 'open', where: '/s', sessions: 1, writable: true }).text).toBe('/s: 1 session');
  });
});

describe('trustCheck', () => {
  const path = '/p/.claude/agent-session.json';
  it.each([
    [{ path, found: false, keys: [], verdict: 'untrusted' }, 'ok'],
    [{ path, found: true, keys: [], verdict: 'untrusted' }, 'ok'],
    [{ path, found: true, keys: ['notify'], verdict: 'trusted' }, 'ok'],
    [{ path, found: true, keys: ['notify', 'database_url'], verdict: 'untrusted' }, 'warn'],
    [{ path, found: true, keys: ['notify'], verdict: 'changed' }, 'warn'],
  ] as const)('%j: %s', (facts, status) => {
    expect(trustCheck(facts).status).toBe(status);
  });

  it('names the ignored settings and the command', () => {
    const check = trustCheck({ path, found: true, keys: ['notify', 'database_url'], verdict: 'changed' });
    expect(check.text).toBe(`${path} changed since you trusted it: its notify, database_url are ignored`);
    expect(check.fix).toContain('agent-session trust');
  });
});

describe('relayCheck', () => {
  it.each([
    [{ state: 'unused' }, 'ok'],
    [{ state: 'off' }, 'ok'],
    [{ state: 'stopped', why: 'no socket' }, 'ok'],
    [{ state: 'running', pid: 7, lastError: null }, 'ok'],
    [{ state: 'running', pid: 7, lastError: 'connection reset' }, 'warn'],
  ] as const)('%j: %s', (facts, status) => {
    expect(relayCheck(facts).status).toBe(status);
  });
});

describe('recentHookErrors and hookErrorsCheck', () => {
  const now = new Date('2026-12-07T12:00:00.000Z');
  const text = [
    '2026-12-06T11:59:59.000Z claude-code event="Stop" error="a day and a second ago"',
    '2026-12-06T12:00:01.000Z claude-code event="SubagentStart" error',
    '2026-12-07T10:00:00.000Z claude-code event="SubagentStart" session_started agent="errorless"',
    '2026-12-07T11:00:00.000Z claude-code event="SubagentStop" error="EACCES"',
    'not a time error="x"',
    '',
  ].join('\n');

  it('keeps the error lines of the last 24 h, by their time', () => {
    const errors = recentHookErrors('pre_delegate.log', text, now);
    expect(errors.map((e) => e.at.toISOString())).toEqual(['2026-12-06T12:00:01.000Z', '2026-12-07T11:00:00.000Z']);
    expect(errors[1]).toEqual({
      at: new Date('2026-12-07T11:00:00.000Z'),
      file: 'pre_delegate.log',
      line: 'claude-code event="SubagentStop" error="EACCES"',
    });
  });

  it('warns with the count and the last one; none is ok', () => {
    const errors = recentHookErrors('pre_delegate.log', text, now);
    const check = hookErrorsCheck(errors, '/p/.claude/logs');
    expect(check.status).toBe('warn');
    expect(check.text).toMatch(
      /^2 errors in the last 24 h; the last, 2026-12-07T11:00:00.000Z in pre_delegate.log: .*EACCES/,
    );
    expect(hookErrorsCheck([], '/p/.claude/logs').status).toBe('ok');
  });
});

describe('doctorExit', () => {
  it.each([
    [[], 0],
    [['ok', 'warn'], 0],
    [['ok', 'fail', 'warn'], 1],
  ] as const)('%j: %d', (statuses, code) => {
    expect(doctorExit(statuses.map((status) => ({ name: 'x', status, text: '' })))).toBe(code);
  });
});
