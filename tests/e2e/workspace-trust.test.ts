// Issue 40 (2): the workspace file `.claude/agent-session.json` is written by the agents agent-session governs and by
// every commit of the repository, so its settings that execute (notify), connect (database_url, its schema) or loosen a
// policy (a raised resume window, error count, grant lifetime, a continuation) apply only once the user trusted that
// exact content with `agent-session trust`; every other setting applies as before. The note's reproductions
// (../shared/notes/redteam-5.md H1 (b), H2's config part) through the built bins, each in its own HOME.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, run } from '../helpers';
import { runOutsideAgent } from '../support/outside-agent';
import { startServe, userEnv } from '../support/serve';

let dir: string;
let project: string;
let home: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-trust-'));
  project = join(dir, 'clone');
  home = join(dir, 'home');
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(home);
  spawnSync('git', ['init', '-q'], { cwd: project });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** This test's own user: HOME and XDG folders apart from the runner's, no agent variable, the clone as the project. */
const env = (extra: Record<string, string | undefined> = {}) =>
  userEnv({
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CLAUDE_PROJECT_DIR: project,
    ...extra,
  }) as Record<string, string | undefined>;
const cli = (args: readonly string[], extra: Record<string, string | undefined> = {}) =>
  run(BIN.cli, args, { cwd: project, env: env(extra) });
/** `agent-session trust …` from the user's own shell (never an agent's: the runner may run in one). */
const trust = (...args: string[]) => runOutsideAgent(BIN.cli, ['trust', ...args], { cwd: project, env: env() });
const configFile = () => join(project, '.claude', 'agent-session.json');
const writeSettings = (settings: object) => writeFileSync(configFile(), JSON.stringify(settings));
const pwned = () => join(dir, 'PWNED');

/** A session parked in approval, as a committed state.json would bring one. */
function parked(): string {
  const id = cli(['create', '--agent', 'reviewer', '--purpose', 'p']).stdout.trim();
  expect(cli(['update', id, '--phase', 'approval']).status).toBe(0);
  return id;
}

function hook(bin: string, payload: object) {
  const result = run(bin, [], { cwd: project, env: env(), input: JSON.stringify({ cwd: project, ...payload }) });
  expect(result.status).toBe(0);
  return result;
}

const settle = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe("a cloned repository's notify (H1 b)", () => {
  it('the first SubagentStop runs nothing, and the hook log names the command that trusts it', async () => {
    writeSettings({ notify: `id > ${pwned()}`, history_cap: 50 });
    parked();
    hook(BIN.subagentStop, {
      hook_event_name: 'SubagentStop',
      session_id: 's',
      agent_id: 'v1',
      agent_type: 'reviewer',
      last_assistant_message: 'done',
    });
    await settle(2500);
    expect(existsSync(pwned())).toBe(false);
    const log = readFileSync(join(project, '.claude', 'logs', 'subagent_stop.log'), 'utf8');
    expect(log).toContain(`ignored notify of ${configFile()} (not trusted); run 'agent-session trust'`);
  });

  it("the user's own serve does not run it either; its log says why", async () => {
    writeSettings({ notify: `id > ${pwned()}` });
    parked();
    const served = await startServe(dir, [], env());
    try {
      // Two sweeps of serve's notifier (every 2 s).
      await settle(4500);
      expect(existsSync(pwned())).toBe(false);
      expect(served.stderr()).toContain('ignored notify of');
    } finally {
      await served.stop();
    }
  }, 30_000);

  it('once trusted it runs; a change makes it untrusted again; --revoke ends it', () => {
    writeSettings({ notify: `id > ${pwned()}` });
    parked();
    const refused = cli(['notify']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("run 'agent-session trust'");

    const trusted = trust();
    expect(trusted.stderr).toBe('');
    expect(trusted.status).toBe(0);
    expect(trusted.stdout).toContain(`Trusted ${configFile()}`);
    expect(trusted.stdout).toContain(`notify = "id > ${pwned()}"`);
    const record = join(home, '.local', 'share', 'agent-session', 'trusted.json');
    expect(statSync(record).mode & 0o777).toBe(0o600);
    expect(cli(['config']).stdout).toMatch(/notify +id > .*\(trusted\)/);
    expect(cli(['notify']).status).toBe(0);
    expect(existsSync(pwned())).toBe(true);

    rmSync(pwned());
    writeFileSync(configFile(), `${readFileSync(configFile(), 'utf8')}\n`);
    expect(cli(['config']).stdout).toContain('(changed since you trusted it)');
    expect(cli(['trust', '--status']).stdout).toMatch(/^Changed since you trusted it/);
    expect(cli(['notify']).status).toBe(2);
    expect(existsSync(pwned())).toBe(false);

    expect(trust().status).toBe(0);
    expect(JSON.parse(cli(['trust', '--status', '--json']).stdout)).toMatchObject({ verdict: 'trusted' });
    expect(cli(['trust', '--revoke']).stdout).toContain('No longer trusted');
    expect(JSON.parse(cli(['trust', '--status', '--json']).stdout)).toMatchObject({ verdict: 'untrusted' });
  });

  it('`trust` from an AI agent’s shell is refused (exit 6), nothing recorded', () => {
    writeSettings({ notify: 'true' });
    const refused = cli(['trust'], { CLAUDECODE: '1' });
    expect(refused.status).toBe(6);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(home, '.local', 'share', 'agent-session', 'trusted.json'))).toBe(false);
  });

  it("the user's own file (~/.config/agent-session/config.json) applies without any trust", () => {
    mkdirSync(join(home, '.config', 'agent-session'), { recursive: true });
    writeFileSync(join(home, '.config', 'agent-session', 'config.json'), JSON.stringify({ notify: `id > ${pwned()}` }));
    parked();
    const shown = cli(['config']).stdout;
    expect(shown).toMatch(/notify +id > .* your file .*config\.json/);
    expect(shown).not.toContain('Untrusted');
    expect(cli(['notify']).status).toBe(0);
    expect(existsSync(pwned())).toBe(true);
  });
});

describe("a cloned repository's database_url (H1 b, egress)", () => {
  let server: Server;
  let connections: number;
  beforeEach(async () => {
    connections = 0;
    // Stands in for the repository's database: counts who connects, answers nothing.
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  });
  afterEach(() => new Promise<void>((done) => server.close(() => done())));

  it('the hooks never connect; the sessions stay in the file store; every other setting applies', () => {
    const port = (server.address() as { port: number }).port;
    writeSettings({ database_url: `postgres://exfil@127.0.0.1:${port}/db?application_name=hello`, history_cap: 7 });
    const started = hook(BIN.preDelegate, {
      hook_event_name: 'SubagentStart',
      session_id: 's',
      agent_id: 'v1',
      agent_type: 'reviewer',
    });
    expect(started.stdout).toContain('agent-');
    expect(connections).toBe(0);
    const listed = cli(['list', '--json']);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
    expect(listed.stderr).toContain(`note: ignored database_url of ${configFile()} (not trusted)`);
    const config = JSON.parse(cli(['config', '--json']).stdout);
    expect(config.store.kind).toBe('files');
    expect(config.settings.history_cap).toEqual({ value: 7, source: { kind: 'file', path: configFile() } });
    expect(config.untrusted).toEqual({
      path: configFile(),
      keys: ['database_url'],
      changed: false,
      trust_with: 'agent-session trust',
    });
    expect(connections).toBe(0);
  });
});

describe("a cloned repository's raised resume window (H2's config part)", () => {
  it('an old committed session is not resumed until the user trusts the file', () => {
    const id = cli(['create', '--agent', 'general-purpose', '--purpose', 'p']).stdout.trim();
    expect(cli(['update', id, '--phase', 'planning']).status).toBe(0);
    // Committed two days ago.
    const file = join(project, '.claude', 'session', id, 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    const old = new Date(Date.now() - 2 * 24 * 3600_000).toISOString();
    writeFileSync(file, JSON.stringify({ ...state, created_at: old, last_updated: old }));
    writeSettings({ resume_timeout_minutes: 5256000 });
    expect(cli(['should-resume', id]).status).toBe(1);
    expect(cli(['config']).stdout).toContain('ignored resume_timeout_minutes of');
    // A lower window needs no trust.
    writeSettings({ resume_timeout_minutes: 10 });
    expect(cli(['config']).stdout).not.toContain('Untrusted');
    writeSettings({ resume_timeout_minutes: 5256000 });
    expect(trust().status).toBe(0);
    expect(cli(['should-resume', id]).status).toBe(0);
  });
});
