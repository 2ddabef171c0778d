// Issue 32 item 7: the CLI in daily use (short ids, the inbox, list's filters and width, help <command>, import -,
// export --force), through the built bins, each case in its own project folder.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectMaker, tempDir } from '../helpers';
import { cliWith, NO_CLI_SETTINGS } from '../support/cli-env';

const base = tempDir();
const project = projectMaker(base);
const cli = cliWith(NO_CLI_SETTINGS);

/** Creates a session (a generated id unless `id`) and moves it through `phases`; returns its id. */
function session(cwd: string, agent: string, phases: readonly string[] = [], id?: string): string {
  const created = cli(cwd, ['create', '--agent', agent, '--purpose', 'p', ...(id === undefined ? [] : ['--id', id])]);
  expect(created.status).toBe(0);
  const made = created.stdout.trim();
  for (const phase of phases) expect(cli(cwd, ['update', made, '--phase', phase]).status).toBe(0);
  return made;
}

const short = (id: string): string => id.slice(-8);
const phaseOf = (cwd: string, id: string): string =>
  (JSON.parse(readFileSync(join(cwd, '.claude', 'session', id, 'state.json'), 'utf8')) as { phase: string }).phase;

describe('ids: the last 8 hex digits, or any unique part, wherever an id is taken', () => {
  it('each command takes the short form a listing shows', () => {
    const cwd = project();
    const id = session(cwd, 'architect', ['planning', 'approval']);
    const other = session(cwd, 'worker');
    expect(id).toMatch(/-[0-9a-f]{8}$/);
    // The listing shows the short form, never the whole id.
    const list = cli(cwd, ['list']);
    expect(list.stdout).toContain(short(id));
    expect(list.stdout).not.toContain(id);
    expect(JSON.parse(cli(cwd, ['get', short(id)]).stdout).agent_id).toBe(id);
    expect(cli(cwd, ['show', short(id)]).stdout).toContain(id);
    expect(cli(cwd, ['should-resume', short(id)]).stdout).toBe('true session_resumable\n');
    expect(JSON.parse(cli(cwd, ['export', short(id)]).stdout).session.agent_id).toBe(id);
    const approved = cli(cwd, ['approve', short(id)]);
    expect(approved.status).toBe(0);
    expect(phaseOf(cwd, id)).toBe('executing');
    expect(cli(cwd, ['update', short(other), '--phase', 'investigating']).status).toBe(0);
    expect(phaseOf(cwd, other)).toBe('investigating');
    expect(cli(cwd, ['finalize', short(id), 'completed']).status).toBe(0);
    expect(phaseOf(cwd, id)).toBe('completed');
    expect(cli(cwd, ['delete', short(id)]).stdout).toBe(`Deleted session ${id}\n`);
    expect(existsSync(join(cwd, '.claude', 'session', id))).toBe(false);
  });

  it('takes any unique part, and an id that is part of another is itself', () => {
    const cwd = project();
    session(cwd, 'a', [], 'worker-5');
    session(cwd, 'b', [], 'worker-50');
    session(cwd, 'c', [], 'job-77');
    expect(JSON.parse(cli(cwd, ['get', 'b-77']).stdout).agent_id).toBe('job-77');
    expect(JSON.parse(cli(cwd, ['get', 'worker-5']).stdout).agent_id).toBe('worker-5');
    expect(JSON.parse(cli(cwd, ['get', 'r-50']).stdout).agent_id).toBe('worker-50');
    // Listed as they are: not generated ids, no short form.
    expect(cli(cwd, ['list']).stdout).toContain('worker-50');
  });

  it('refuses an ambiguous part with exit 2, naming the candidates, and changes nothing', () => {
    const cwd = project();
    session(cwd, 'a', [], 'task-1-abc');
    session(cwd, 'b', [], 'task-2-abc');
    for (const args of [
      ['get', 'abc'],
      ['update', 'abc', '--phase', 'planning'],
      ['approve', 'abc'],
      ['delete', 'abc'],
    ]) {
      const result = cli(cwd, args);
      expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('task-1-abc');
      expect(result.stderr).toContain('task-2-abc');
    }
    expect(phaseOf(cwd, 'task-1-abc')).toBe('initializing');
    expect(readdirSync(join(cwd, '.claude', 'session')).filter((name) => name.startsWith('task-'))).toHaveLength(2);
  });

  it('answers a part no id holds as not found (exit 3), and should-resume as before (exit 1)', () => {
    const cwd = project();
    session(cwd, 'a');
    expect(cli(cwd, ['get', 'ffffffff']).status).toBe(3);
    expect(cli(cwd, ['approve', 'ffffffff']).status).toBe(3);
    const answer = cli(cwd, ['should-resume', 'ffffffff']);
    expect({ status: answer.status, stdout: answer.stdout }).toEqual({
      status: 1,
      stdout: 'false session_not_found\n',
    });
  });

  it('adopt takes short ids too', () => {
    const cwd = project();
    const id = session(cwd, 'mover');
    const adopted = cli(cwd, ['adopt', short(id)], { AGENT_SESSION_PROJECT: 'github.com/acme/elsewhere' });
    expect(adopted.status).toBe(0);
    expect(adopted.stdout).toContain(`: ${id}`);
    expect(JSON.parse(cli(cwd, ['get', id]).stdout).project).toBe('github.com/acme/elsewhere');
  });
});

describe('pending: what waits for the user decision now', () => {
  it('lists only sessions in approval, newest first, each with its command; the others are left out', () => {
    const cwd = project();
    const older = session(cwd, 'planner', ['planning', 'approval']);
    session(cwd, 'digger', ['investigating']);
    session(cwd, 'thinker', ['planning']);
    const newer = session(cwd, 'reviewer', ['planning', 'approval']);
    const result = cli(cwd, ['pending'], { COLUMNS: '200' });
    expect(result.status).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('2 sessions wait for your decision:');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain(`agent-session approve ${short(newer)}`);
    expect(lines[3]).toContain(`agent-session approve ${short(older)}`);
    expect(result.stdout).not.toMatch(/digger|thinker/);
    const json = JSON.parse(cli(cwd, ['pending', '--json']).stdout);
    expect(json.map((item: { agent_id: string }) => item.agent_id)).toEqual([newer, older]);
    expect(json[0]).toMatchObject({
      kind: 'approval',
      expired: false,
      decide: [`agent-session approve ${short(newer)}`, expect.any(String)],
    });
    // The command it prints decides it.
    const [command, ...args] = json[0].decide[0].split(' ');
    expect(command).toBe('agent-session');
    expect(cli(cwd, args).status).toBe(0);
    expect(phaseOf(cwd, newer)).toBe('executing');
    // One left: the verb agrees (issue 44: "1 session wait for your decision").
    expect(cli(cwd, ['pending'], { COLUMNS: '200' }).stdout.split('\n')[0]).toBe('1 session waits for your decision:');
    expect(JSON.parse(cli(cwd, ['pending', '--agent', 'planner', '--json']).stdout)).toHaveLength(1);
    expect(JSON.parse(cli(cwd, ['pending', '--agent', 'reviewer', '--json']).stdout)).toHaveLength(0);
  });

  it('lists expired ones apart, saying what approving them does; approving one revives it', () => {
    const cwd = project();
    const id = session(cwd, 'planner', ['planning', 'approval']);
    const env = { AGENT_SESSION_RESUME_TIMEOUT_MINUTES: '0.001' };
    const result = cli(cwd, ['pending'], { ...env, COLUMNS: '200' });
    expect(result.stdout).toMatch(/^Nothing waits for your decision\n\nExpired, 1 session \(/);
    expect(result.stdout).toContain('approving one revives it');
    expect(result.stdout).toContain(`agent-session approve ${short(id)}`);
    expect(JSON.parse(cli(cwd, ['pending', '--json'], env).stdout)[0]).toMatchObject({ expired: true });
    expect(cli(cwd, ['should-resume', short(id)], env).stdout).toBe('false session_expired\n');
    expect(cli(cwd, ['approve', short(id)], env).status).toBe(0);
    expect(cli(cwd, ['should-resume', short(id)]).stdout).toBe('true session_resumable\n');
  });

  it('fits the terminal width: free text gives way first, the command stays whole', () => {
    const cwd = project();
    const id = session(cwd, 'a-very-long-agent-name-that-goes-on-and-on', ['planning', 'approval']);
    expect(cli(cwd, ['update', id, '--metadata', JSON.stringify({ plan: 'word '.repeat(60) })]).status).toBe(0);
    for (const width of [60, 80, 100]) {
      const result = cli(cwd, ['pending'], { COLUMNS: String(width) });
      for (const line of result.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(width);
      expect(result.stdout).toContain(`agent-session approve ${short(id)}`);
      expect(result.stdout).toContain('…');
    }
  });
});

describe('list --phase --agent --limit, a resumable column as should-resume says, widths', () => {
  it('filters by phase and agent, newest first, at most --limit', () => {
    const cwd = project();
    const a1 = session(cwd, 'planner', ['planning']);
    const a2 = session(cwd, 'planner', ['planning', 'approval']);
    const b1 = session(cwd, 'worker', ['planning']);
    const b2 = session(cwd, 'worker', ['investigating']);
    const ids = (args: string[]) =>
      (JSON.parse(cli(cwd, ['list', ...args, '--json']).stdout) as { agent_id: string }[]).map((s) => s.agent_id);
    expect(ids([])).toEqual([b2, b1, a2, a1]);
    expect(ids(['--phase', 'planning'])).toEqual([b1, a1]);
    expect(ids(['--agent', 'planner'])).toEqual([a2, a1]);
    expect(ids(['--phase', 'planning', '--agent', 'worker'])).toEqual([b1]);
    expect(ids(['--limit', '3'])).toEqual([b2, b1, a2]);
    expect(ids(['--limit', '1', '--agent', 'planner'])).toEqual([a2]);
    const table = cli(cwd, ['list', '--limit', '2']).stdout.trimEnd().split('\n');
    expect(table).toHaveLength(3);
    expect(table[1]).toContain(short(b2));
  });

  it.each([
    [['--phase', 'dancing'], '--phase'],
    [['--limit', '0'], '--limit'],
    [['--limit', 'ten'], '--limit'],
    [['--limit', '-3'], '--limit'],
    [['--limit', '1.5'], '--limit'],
  ])('refuses list %p with exit 2, one line naming %p', (args, flag) => {
    const result = cli(project(), ['list', ...args]);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(flag);
  });

  it('says for each session what should-resume says for it', () => {
    const cwd = project();
    session(cwd, 'planner', ['planning', 'approval']);
    session(cwd, 'planner', ['investigating']);
    const done = session(cwd, 'planner', ['planning']);
    expect(cli(cwd, ['finalize', done, 'completed']).status).toBe(0);
    session(cwd, 'starter');
    const listed = JSON.parse(cli(cwd, ['list', '--json']).stdout) as {
      agent_id: string;
      resumable_now: boolean;
      resume_reason: string;
    }[];
    expect(listed).toHaveLength(4);
    for (const entry of listed) {
      const answer = cli(cwd, ['should-resume', entry.agent_id]);
      expect(answer.stdout).toBe(`${entry.resumable_now} ${entry.resume_reason}\n`);
      const row = cli(cwd, ['list'], { COLUMNS: '200' })
        .stdout.split('\n')
        .find((line) => line.startsWith(short(entry.agent_id)));
      expect(row).toContain(entry.resumable_now ? ' yes ' : ` no (${entry.resume_reason})`);
    }
  });

  it.each([60, 80, 120])('list, pending and show fit %p columns', (width) => {
    const cwd = project();
    const id = session(cwd, 'an-agent-with-a-rather-long-descriptive-name', ['planning', 'approval']);
    const plan = JSON.stringify({ plan: 'buckets and roles '.repeat(20), notes: 'x'.repeat(150) });
    expect(cli(cwd, ['update', id, '--metadata', plan]).status).toBe(0);
    for (const args of [['list'], ['pending'], ['show', short(id)]]) {
      const result = cli(cwd, args, { COLUMNS: String(width) });
      expect(result.status).toBe(0);
      for (const line of result.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(width);
    }
    // show cuts nothing off: the long metadata is wrapped, every character of it still there.
    const shown = cli(cwd, ['show', short(id)], { COLUMNS: String(width) }).stdout.replace(/\n {15}/g, '');
    expect(shown).toContain('x'.repeat(150));
  });
});

describe('help <command>, import -, export --force', () => {
  it.each(['list', 'pending', 'approve', 'import', 'export'])('help %s is its --help', (command) => {
    const cwd = project();
    const help = cli(cwd, ['help', command]);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(cli(cwd, [command, '--help']).stdout);
    expect(help.stdout).toContain(`agent-session ${command}`);
  });

  it('help alone is --help; help of no command is refused (exit 2)', () => {
    const cwd = project();
    expect(cli(cwd, ['help']).stdout).toBe(cli(cwd, ['--help']).stdout);
    const unknown = cli(cwd, ['help', 'frobnicate']);
    expect({ status: unknown.status, stdout: unknown.stdout }).toEqual({ status: 2, stdout: '' });
  });

  it('import - reads the export document from stdin', () => {
    const from = project();
    const id = session(from, 'mover', ['planning']);
    const exported = cli(from, ['export', short(id)]).stdout;
    const to = project();
    const imported = cli(to, ['import', '-'], {}, exported);
    expect({ status: imported.status, stdout: imported.stdout }).toEqual({ status: 0, stdout: `${id}\n` });
    expect(phaseOf(to, id)).toBe('planning');
    const again = cli(to, ['import', '--new-id', '-'], {}, exported);
    expect(again.status).toBe(0);
    expect(again.stdout.trim()).not.toBe(id);
    const bad = cli(to, ['import', '-'], {}, '{"not": "an export"}');
    expect({ status: bad.status, lines: bad.stderr.trimEnd().split('\n').length }).toEqual({ status: 2, lines: 1 });
  });

  it('export --out refuses an existing file (exit 4, untouched) unless --force, which replaces it', () => {
    const cwd = project();
    const id = session(cwd, 'exporter');
    const file = join(cwd, 'out.json');
    writeFileSync(file, 'mine');
    const refused = cli(cwd, ['export', short(id), '--out', file]);
    expect({ status: refused.status, stdout: refused.stdout }).toEqual({ status: 4, stdout: '' });
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(file, 'utf8')).toBe('mine');
    expect(cli(cwd, ['export', short(id), '--out', file, '--force']).status).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).session.agent_id).toBe(id);
  });
});

describe('the file store answers a filtered listing from its summary cache, never a stale one', () => {
  it('sees a state.json changed behind its back, and cleanup counts the cache as its own', () => {
    const cwd = project();
    const id = session(cwd, 'planner', ['planning']);
    const ids = (args: string[]) =>
      (JSON.parse(cli(cwd, ['list', ...args, '--json']).stdout) as { agent_id: string }[]).map((s) => s.agent_id);
    expect(ids(['--phase', 'planning'])).toEqual([id]);
    const root = join(cwd, '.claude', 'session');
    expect(readdirSync(root)).toContain('.listing-cache.json');
    // Another writer (an older version, a restore) replaces the file: the next listing reads it again.
    const file = join(root, id, 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    expect(cli(cwd, ['update', short(id), '--phase', 'approval']).status).toBe(0);
    expect(ids(['--phase', 'planning'])).toEqual([]);
    writeFileSync(file, JSON.stringify(state));
    expect(ids(['--phase', 'planning'])).toEqual([id]);
    expect(ids(['--phase', 'approval'])).toEqual([]);
    writeFileSync(join(root, '.listing-cache.json'), 'torn');
    expect(ids(['--phase', 'planning', '--limit', '1'])).toEqual([id]);
    const cleanup = JSON.parse(cli(cwd, ['cleanup', '--dry-run', '--json']).stdout);
    expect(cleanup.not_ours).toEqual([]);
  });
});
