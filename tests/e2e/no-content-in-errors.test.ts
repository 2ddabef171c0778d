// Issue 10 item 4: error messages say where and what kind of error, never the content of the file (a password in
// a corrupt state.json's metadata came back in CLI errors, `list` warnings and subagent-stop's `error` field).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'agent-session.cjs');
const STOP = join(ROOT, 'dist', 'subagent-stop.cjs');
const SECRET = 'hunter2-Secret';

let dir: string;
let store: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  store = join(dir, 'store');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(
  bin: string,
  args: readonly string[],
  input = '',
  extra: NodeJS.ProcessEnv = {},
): SpawnSyncReturns<string> {
  const env = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: '',
    AGENT_SESSION_DIR: store,
    AGENT_SESSION_LOG_DIR: join(dir, 'logs'),
    CLAUDE_PROJECT_DIR: '',
    AGENT_SESSION_CONFIG: '',
    ...extra,
  };
  return spawnSync(process.execPath, [bin, ...args], { cwd: dir, env, input, encoding: 'utf8' });
}

// Each one makes Node 20's JSON.parse quote the text in its message (or, cut short, names a position only).
const BROKEN: readonly (readonly [string, string, RegExp])[] = [
  ['a bare word', `{\n  "agent_id": "bad",\n  "metadata": {"password": ${SECRET}}\n}\n`, /line 3, column 28/],
  [
    'truncated',
    `{\n  "agent_id": "bad",\n  "metadata": {"password": "${SECRET}`,
    /line 3, column 28: unterminated string/,
  ],
  ['trailing text', `{"agent_id": "bad"} ${SECRET}`, /line 1, column 21/],
];

describe('a corrupt state.json never shows its content', () => {
  it.each(BROKEN)(
    '%s: get, update, list warnings and subagent-stop name the line and column only',
    (_name, text, where) => {
      mkdirSync(join(store, 'bad'), { recursive: true });
      writeFileSync(join(store, 'bad', 'state.json'), text);
      for (const args of [['get', 'bad'], ['update', 'bad', '--phase', 'planning'], ['list'], ['list', '--json']]) {
        const result = run(CLI, args);
        expect(result.stdout + result.stderr).not.toContain(SECRET);
        expect(result.stderr).toMatch(where);
      }
      const stop = run(STOP, [], JSON.stringify({ agent_id: 'bad', exit_code: 0 }));
      expect(stop.status).toBe(0);
      const answer = JSON.parse(stop.stdout) as { reason: string; error: string };
      expect(answer.reason).toBe('invalid_state');
      expect(answer.error).toMatch(where);
      expect(stop.stdout + stop.stderr).not.toContain(SECRET);
    },
  );

  it('a config file and an import file with a syntax error are located, not quoted', () => {
    writeFileSync(join(dir, 'config.json'), `{"max_errors": ${SECRET}}`);
    const config = run(CLI, ['list'], '', { AGENT_SESSION_CONFIG: join(dir, 'config.json') });
    expect(config.status).toBe(2);
    expect(config.stderr).toMatch(/line 1, column 16/);
    expect(config.stderr).not.toContain(SECRET);
    writeFileSync(join(dir, 'export.json'), `{"format": "agent-session/1", "session": ${SECRET}}`);
    const imported = run(CLI, ['import', join(dir, 'export.json')]);
    expect(imported.status).toBe(2);
    expect(imported.stderr).toMatch(/line 1, column 42/);
    expect(imported.stderr).not.toContain(SECRET);
  });
});
