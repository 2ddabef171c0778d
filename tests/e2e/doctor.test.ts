// `agent-session doctor` (issue 44 item 4) with the built bin in a temp project and HOME: a fresh init is all ok
// (exit 0); init's hooks and the plugin both enabled warn, naming both files (exit 0); a broken settings file fails
// (exit 1); hook errors of the last 24 h warn, older ones are not counted.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, projectMaker, run, tempDir } from '../helpers';

const base = tempDir();
const project = projectMaker(base);

interface Doctor {
  readonly ok: boolean;
  readonly checks: readonly { name: string; status: 'ok' | 'warn' | 'fail'; text: string; fix?: string }[];
}

function doctorIn(cwd: string, home: string, args: readonly string[] = []): { status: number | null; json: Doctor } {
  const env = { HOME: home, CLAUDE_CONFIG_DIR: undefined, AGENT_SESSION_LOG_DIR: undefined };
  const result = run(BIN.cli, ['doctor', '--json', ...args], { cwd, env });
  expect(result.stderr).toBe('');
  return { status: result.status, json: JSON.parse(result.stdout) as Doctor };
}

function fresh(): { cwd: string; home: string } {
  const cwd = project();
  const home = join(cwd, '..', `${cwd.split('/').at(-1)!}-home`);
  mkdirSync(home, { recursive: true });
  return { cwd, home };
}

function init(cwd: string, home: string, args: readonly string[] = []): void {
  const done = run(BIN.cli, ['init', ...args], { cwd, env: { HOME: home } });
  expect(done.status).toBe(0);
}

it('after a fresh init: every check ok, exit 0, and the text has one ok line per check', () => {
  const { cwd, home } = fresh();
  init(cwd, home);
  const { status, json } = doctorIn(cwd, home);
  expect(status).toBe(0);
  expect(json.ok).toBe(true);
  expect(json.checks.map((c) => [c.name, c.status])).toEqual([
    ['wiring', 'ok'],
    ['node', 'ok'],
    ['trust', 'ok'],
    ['store', 'ok'],
    ['relay', 'ok'],
    ['hook-errors', 'ok'],
  ]);
  expect(json.checks.find((c) => c.name === 'node')!.text).toContain(process.execPath);
  const text = run(BIN.cli, ['doctor'], { cwd, env: { HOME: home } });
  expect(text.status).toBe(0);
  expect(
    text.stdout
      .trim()
      .split('\n')
      .map((line) => line.slice(0, 4)),
  ).toEqual(Array(6).fill('ok  '));
});

it("init's hooks and the plugin both: a warning naming both files, exit 0", () => {
  const { cwd, home } = fresh();
  init(cwd, home, ['--plugin']);
  init(cwd, home);
  const { status, json } = doctorIn(cwd, home);
  expect(status).toBe(0);
  const double = json.checks.find((c) => c.name === 'double-wiring');
  expect(double?.status).toBe('warn');
  expect(double?.text).toContain(join(cwd, '.claude', 'settings.local.json'));
  expect(double?.text).toContain(join(cwd, '.claude', 'settings.json'));
  expect(json.checks.filter((c) => c.status === 'fail')).toEqual([]);
});

it('a broken settings file: a failure naming it, exit 1', () => {
  const { cwd, home } = fresh();
  init(cwd, home);
  writeFileSync(join(cwd, '.claude', 'settings.local.json'), '{"hooks": ');
  const { status, json } = doctorIn(cwd, home);
  expect(status).toBe(1);
  expect(json.ok).toBe(false);
  const failed = json.checks.filter((c) => c.status === 'fail');
  expect(failed.map((c) => c.name)).toEqual(['settings']);
  expect(failed[0]!.text).toContain(join(cwd, '.claude', 'settings.local.json'));
  const text = run(BIN.cli, ['doctor'], { cwd, env: { HOME: home } });
  expect(text.status).toBe(1);
  expect(text.stdout).toMatch(/^FAIL settings: /m);
});

it('hook errors of the last 24 h warn (the last one named); a day-old one is not counted', () => {
  const { cwd, home } = fresh();
  init(cwd, home);
  mkdirSync(join(cwd, '.claude', 'logs'), { recursive: true });
  const recent = new Date(Date.now() - 3_600_000).toISOString();
  const old = new Date(Date.now() - 25 * 3_600_000).toISOString();
  writeFileSync(
    join(cwd, '.claude', 'logs', 'pre_delegate.log'),
    `${old} claude-code event="SubagentStart" error="old one"\n` +
      `${recent} claude-code event="SubagentStart" session_started agent="a"\n` +
      `${recent} claude-code event="SubagentStart" error="EACCES: permission denied"\n`,
  );
  const { status, json } = doctorIn(cwd, home);
  expect(status).toBe(0);
  const errors = json.checks.find((c) => c.name === 'hook-errors')!;
  expect(errors.status).toBe('warn');
  expect(errors.text).toMatch(/^1 error in the last 24 h/);
  expect(errors.text).toContain('EACCES');
});

it('no wiring at all: a failure saying what to run, exit 1', () => {
  const { cwd, home } = fresh();
  const { status, json } = doctorIn(cwd, home);
  expect(status).toBe(1);
  expect(json.checks.find((c) => c.name === 'wiring')).toMatchObject({ status: 'fail' });
});

it("a config file's sensitive settings not trusted: a warning naming them, exit 0; trusted, ok", () => {
  const { cwd, home } = fresh();
  init(cwd, home);
  writeFileSync(join(cwd, '.claude', 'agent-session.json'), '{"notify": "true", "history_cap": 300}\n');
  const before = doctorIn(cwd, home);
  expect(before.status).toBe(0);
  const untrusted = before.json.checks.find((c) => c.name === 'trust')!;
  expect(untrusted.status).toBe('warn');
  expect(untrusted.text).toContain('notify');
  expect(untrusted.text).not.toContain('history_cap');
  expect(run(BIN.cli, ['trust'], { cwd, env: { HOME: home } }).status).toBe(0);
  expect(doctorIn(cwd, home).json.checks.find((c) => c.name === 'trust')!.status).toBe('ok');
});

it("init's hooks here and the plugin enabled for every project in the user's settings: the double wiring names both", () => {
  const { cwd, home } = fresh();
  init(cwd, home);
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(join(home, '.claude', 'settings.json'), '{"enabledPlugins": {"agent-session@agent-session": true}}\n');
  const { status, json } = doctorIn(cwd, home);
  expect(status).toBe(0);
  const double = json.checks.find((c) => c.name === 'double-wiring')!;
  expect(double.status).toBe('warn');
  expect(double.text).toContain(join(cwd, '.claude', 'settings.local.json'));
  expect(double.text).toContain(join(home, '.claude', 'settings.json'));
});
