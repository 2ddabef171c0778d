// Issue 13 item 5: the CLI as a careless new user meets it (help, completion, options, colour, config), through the
// built bin. Each case failed on the code before the fix.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FINAL_PHASES, PHASES } from '../../src/core/phase-names';
import { COMMANDS } from '../../src/cli/main';
import { FLAG_OPTIONS, VALUE_OPTIONS } from '../../src/cli/options';
import { BIN, projectMaker, tempDir } from '../helpers';
import { cliWith, NO_CLI_SETTINGS } from '../support/cli-env';

const base = tempDir();
const project = projectMaker(base);
// The colour and width conventions under test come from the environment: none of the runner's may leak in.
const CLEAN = { ...NO_CLI_SETTINGS, TERM: 'xterm-256color' };
const cli = cliWith(CLEAN);

/** The one-line error of a refused command: exit code, nothing on stdout, one line naming what was wrong. */
function expectRefused(result: ReturnType<typeof cli>, status: number, mentions?: string): void {
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status, stdout: '' });
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^agent-session: /);
  if (mentions !== undefined) expect(lines[0]).toContain(mentions);
}

function withSession(id = 's1'): string {
  const cwd = project();
  expect(cli(cwd, ['create', '--agent', 'architect', '--purpose', 'p', '--id', id]).status).toBe(0);
  return cwd;
}

const stateOf = (cwd: string, id = 's1'): Record<string, unknown> =>
  JSON.parse(readFileSync(join(cwd, '.claude', 'session', id, 'state.json'), 'utf8'));

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

describe('help wraps at word boundaries, to the width', () => {
  const pages = [[], ...COMMANDS.map((command) => [String(command.command).split(' ')[0]!])];
  it.each(pages.flatMap((page) => [60, 80, 100].map((width) => [[...page, '--help'].join(' '), width] as const)))(
    '%s at %p columns',
    (line, width) => {
      const args = line.split(' ');
      const result = cli(base, args, { COLUMNS: String(width) });
      expect(result.status).toBe(0);
      for (const row of result.stdout.split('\n')) expect(row.length).toBeLessThanOrEqual(width);
      // Every description reads whole once the wrapping is undone: no word was cut ("opt ion", "unles s").
      const text = collapse(result.stdout);
      const shown = args.length === 1 ? COMMANDS : COMMANDS.filter((c) => String(c.command).startsWith(args[0]!));
      // The overview's description column is narrow at 60 columns: long tokens such as `.claude/settings.json`
      // may be cut there as a last resort, so the overview is checked from 80.
      if (args.length > 1 || width >= 80)
        for (const command of shown) expect(text).toContain(collapse(String(command.describe)));
    },
  );
});

it.each([[['update', 'help']], [['update', '-h']]])('wraps %p as `update --help`', (args) => {
  const result = cli(base, args, { COLUMNS: '60' });
  expect(result.status).toBe(0);
  expect(collapse(result.stdout)).toContain(collapse(String(COMMANDS[1]!.describe)));
});

describe('completion', () => {
  it('`completion --help` prints help, not the script', () => {
    for (const args of [
      ['completion', '--help'],
      ['completion', 'bash', '--help'],
    ]) {
      const result = cli(base, args);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('agent-session completion [shell]');
      expect(result.stdout).not.toContain('###-begin');
    }
    const script = cli(base, ['completion', 'bash']);
    expect(script.stdout).toContain('###-begin-agent-session-completions-###');
    expect(script.stdout).toContain('Installation: agent-session completion >> ~/.bashrc');
    expect(cli(base, ['completion', 'zsh']).stdout).toContain('#compdef agent-session');
  });

  const complete = (cwd: string, words: readonly string[], env: Record<string, string | undefined> = {}) =>
    cli(cwd, ['--get-yargs-completions', 'agent-session', ...words], env);

  const ids = ['alpha-1', 'alpha-2', 'beta'];
  const store = (): string => {
    const cwd = project();
    for (const id of ids) cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', id]);
    return cwd;
  };

  it.each([
    ['ids after get', ['get', ''], ids],
    ['ids with a prefix', ['get', 'alp'], ['alpha-1', 'alpha-2']],
    ['ids after update', ['update', ''], ids],
    ['ids after should-resume, finalize, delete, export', ['export', 'b'], ['beta']],
    ['ids after options', ['--dir', '.claude/session', 'update', '--json', ''], ids],
    ['phases after --phase', ['update', 'beta', '--phase', ''], [...PHASES]],
    ['phases with a prefix', ['update', 'beta', '--phase', 'pl'], ['planning']],
    ['outcomes of finalize', ['finalize', 'beta', ''], [...FINAL_PHASES]],
    ['shells of completion', ['completion', ''], ['bash', 'zsh']],
    ['nothing for a free text value', ['update', 'beta', '--error', ''], []],
  ])('%s', (_label, words, expected) => {
    const result = complete(store(), words);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').filter(Boolean)).toEqual(expected);
  });

  it('still completes commands and options', () => {
    const cwd = store();
    expect(complete(cwd, ['']).stdout.split('\n')).toEqual(expect.arrayContaining(['create', 'completion', 'list']));
    expect(complete(cwd, ['update', 'beta', '--']).stdout.split('\n')).toEqual(
      expect.arrayContaining(['--phase', '--metadata', '--error']),
    );
  });

  it('answers from a large or damaged store with candidates only, and from none with nothing', () => {
    const cwd = store();
    const root = join(cwd, '.claude', 'session');
    for (let n = 0; n < 3000; n++) mkdirSync(join(root, `bulk-${n}`));
    writeFileSync(join(root, 'beta', 'state.json'), '{"truncated');
    mkdirSync(join(root, '$(touch pwned)'));
    mkdirSync(join(root, 'x\u001b[2Jy'));
    writeFileSync(join(root, 'loose-file'), 'x');
    const big = complete(cwd, ['get', '']);
    expect(big.status).toBe(0);
    expect(big.stderr).toBe('');
    const listed = big.stdout.split('\n').filter(Boolean);
    expect(listed).toHaveLength(3003);
    expect(listed).toEqual(expect.arrayContaining(ids));
    for (const id of listed) expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/);
    // A config that every command refuses does not matter to completion.
    writeFileSync(join(cwd, '.claude', 'agent-session.json'), '{oops');
    expect(complete(cwd, ['get', 'bet']).stdout).toBe('beta\n');
    // A store root that is a file, or a --dir that does not exist: no candidates, no message.
    writeFileSync(join(base, 'a-file'), 'x');
    for (const dir of [join(base, 'a-file'), join(base, 'missing')]) {
      const none = complete(cwd, ['--dir', dir, 'get', '']);
      expect([none.status, none.stdout, none.stderr]).toEqual([0, '', '']);
    }
    expect(readdirSync(cwd)).not.toContain('pwned');
  });

  // The script as bash runs it: COMP_WORDS in, COMPREPLY out, with `agent-session` on PATH.
  const hasBash = spawnSync('bash', ['--version']).status === 0;
  (hasBash ? it : it.skip)('completes ids in a real bash', () => {
    const cwd = store();
    const binDir = join(base, 'bin');
    mkdirSync(binDir, { recursive: true });
    writeFileSync(join(binDir, 'agent-session'), `#!/bin/sh\nexec "${process.execPath}" "${BIN.cli}" "$@"\n`);
    chmodSync(join(binDir, 'agent-session'), 0o755);
    const script = cli(cwd, ['completion', 'bash']).stdout;
    writeFileSync(join(base, 'completion.bash'), script);
    const result = spawnSync(
      'bash',
      [
        '-c',
        `source "${join(base, 'completion.bash')}"; COMP_WORDS=(agent-session get al); COMP_CWORD=2; ` +
          `_agent-session_yargs_completions; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, ...CLEAN, NODE_EXTRA_CA_CERTS: '', PATH: `${binDir}:/usr/bin:/bin` },
      },
    );
    expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual(['alpha-1', 'alpha-2']);
  });

  it('knows every option of every command (the value/flag lists behind completion and checks)', () => {
    for (const page of COMMANDS.map((command) => String(command.command).split(' ')[0]!)) {
      const help = cli(base, [page, '--help'], { COLUMNS: '200' }).stdout;
      // A `[number]` option takes a value as a `[string]` one does (cleanup --hours).
      for (const [, flag, kind] of help.matchAll(/^\s+(--[a-z-]+)\s.*\[(string|number|boolean)\]/gm)) {
        expect([page, flag, (kind === 'boolean' ? FLAG_OPTIONS : VALUE_OPTIONS).has(flag!)]).toEqual([
          page,
          flag,
          true,
        ]);
      }
    }
  });
});

describe('--json on get and delete', () => {
  it('get --json prints the state, as get does', () => {
    const cwd = withSession();
    const result = cli(cwd, ['get', 's1', '--json']);
    expect(result.status).toBe(0);
    // state.json as the file holds it, with the project its folder names (a project's own store leaves it out).
    expect(JSON.parse(result.stdout)).toEqual({
      ...stateOf(cwd),
      schema_version: 5,
      project: expect.stringMatching(/^path:\//),
    });
    expect(result.stdout).toBe(cli(cwd, ['get', 's1']).stdout);
  });

  it('delete --json prints {deleted, agent_id}', () => {
    const cwd = withSession();
    const result = cli(cwd, ['delete', 's1', '--json']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ deleted: true, agent_id: 's1' });
    expect(cli(cwd, ['get', 's1']).status).toBe(3);
  });
});

describe('config', () => {
  it('shows the store root and log folder it resolved', () => {
    const cwd = project();
    const text = cli(cwd, ['config']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`Store root:  ${join(cwd, '.claude', 'session')}\n`);
    expect(text.stdout).toContain(`Log folder:  ${join(cwd, '.claude', 'logs')}\n`);
    const moved = JSON.parse(cli(cwd, ['config', '--json'], { AGENT_SESSION_LOG_DIR: join(base, 'logs') }).stdout);
    expect(moved).toMatchObject({ store_root: join(cwd, '.claude', 'session'), log_dir: join(base, 'logs') });
  });

  it.each([
    ['an invalid value in the file', { file: '{"resume_timeout_minutes": "x"}' }, 'resume_timeout_minutes'],
    ['a file that is not JSON', { file: '{"max_errors": 3,' }, 'line 1'],
    ['an invalid variable', { env: { AGENT_SESSION_MAX_ERRORS: 'abc' } }, 'AGENT_SESSION_MAX_ERRORS'],
  ])('shows %s, exits 2, and still prints the rest', (_label, setup: { file?: string; env?: object }, named) => {
    const cwd = project();
    if (setup.file !== undefined) writeFileSync(join(cwd, '.claude', 'agent-session.json'), setup.file);
    const env = (setup.env ?? {}) as Record<string, string>;
    const text = cli(cwd, ['config'], env);
    expect(text.status).toBe(2);
    expect(text.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(named)]);
    expect(text.stdout).toContain(`Store root:  ${join(cwd, '.claude', 'session')}`);
    expect(text.stdout).toContain(`Invalid:     `);
    expect(text.stdout).toMatch(/^max_errors\s+3\s+default$/m);
    const json = cli(cwd, ['config', '--json'], env);
    expect(json.status).toBe(2);
    const document = JSON.parse(json.stdout);
    expect(document).toMatchObject({ store_root: join(cwd, '.claude', 'session'), error: { code: 'E_USAGE' } });
    expect(document.settings.max_errors).toEqual({ value: 3, source: { kind: 'default' } });
  });
});

describe('bad arguments: exit 2, one line, nothing changed', () => {
  it.each([
    ['init --project <missing>', ['init', '--project', 'no-such-folder'], 'no-such-folder'],
    ['init --project ""', ['init', '--project', ''], '--project'],
    ['stats --since -1d', ['stats', '--since', '-1d'], '`-1d`'],
    ['stats --since with no value', ['stats', '--since'], '--since'],
    ['update --error -x (a dash value must follow =)', ['update', 's1', '--error', '-x'], '--error=-x'],
    ['list --agent ""', ['list', '--agent', ''], '--agent'],
    ['stats --agent ""', ['stats', '--agent', ''], '--agent'],
    ['update --error ""', ['update', 's1', '--error', ''], '--error'],
    ['update --error " "', ['update', 's1', '--error', ' '], '--error'],
    ['finalize --summary ""', ['finalize', 's1', 'completed', '--summary', ''], '--summary'],
    ['export --out ""', ['export', 's1', '--out', ''], '--out'],
    ['report --out ""', ['report', '--out', ''], '--out'],
    ['pending --agent ""', ['pending', '--agent', ''], '--agent'],
    ['copy --from a missing folder', ['copy', '--from', 'no-such-store', '--to', 'elsewhere'], 'no-such-store'],
    ['report --since -1d', ['report', '--since', '-1d'], '`-1d`'],
    ['approve --note ""', ['approve', 's1', '--note', ''], '--note'],
    ['approve --note with no value', ['approve', 's1', '--note', '--json'], '--note'],
    ['--dir ""', ['--dir', '', 'update', 's1', '--phase', 'planning'], '--dir'],
    ['--phase given twice', ['update', 's1', '--phase', 'planning', '--phase', 'approval'], '--phase'],
    ['cleanup --dry-run=yes (would have removed)', ['cleanup', '--hours', '0', '--dry-run=yes'], '--dry-run=yes'],
    ['--json=1', ['update', 's1', '--json=1'], '--json=1'],
    ['an unknown option, as typed', ['list', '--hours', '3'], '`--hours`'],
    ['a missing id', ['get'], 'get <id>'],
    ['a missing required option', ['create', '--agent', 'a'], '`--purpose`'],
  ])('%s', (_label, args, mentions) => {
    const cwd = withSession();
    const before = readFileSync(join(cwd, '.claude', 'session', 's1', 'state.json'), 'utf8');
    expectRefused(cli(cwd, args), 2, mentions);
    expect(readFileSync(join(cwd, '.claude', 'session', 's1', 'state.json'), 'utf8')).toBe(before);
    expect(existsIn(cwd, 'settings.json')).toBe(false);
  });

  it('takes a value that begins with a dash after =, and a repeated identical option once', () => {
    const cwd = withSession();
    expect(cli(cwd, ['update', 's1', '--error=-x failed']).status).toBe(0);
    expect(stateOf(cwd)).toMatchObject({ error_count: 1, last_error: { message: '-x failed' } });
    expect(cli(cwd, ['update', 's1', '--phase', 'planning', '--phase', 'planning']).status).toBe(0);
    expect(stateOf(cwd)).toMatchObject({ phase: 'planning' });
    expect(cli(cwd, ['cleanup', '--hours', '0', '--dry-run=true']).stdout).toMatch(/^Would remove 1 session /);
  });
});

function existsIn(cwd: string, name: string): boolean {
  return readdirSync(join(cwd, '.claude')).includes(name);
}

describe('--metadata', () => {
  it('repeated: merged left to right, a later key wins', () => {
    const cwd = withSession();
    const result = cli(cwd, ['update', 's1', '--metadata', '{"a":1,"b":1}', '--metadata', '{"b":2}']);
    expect(result.status).toBe(0);
    expect(stateOf(cwd).metadata).toEqual({ a: 1, b: 2 });
  });

  it('from a file (@FILE) and from stdin (-), with create and update', () => {
    const cwd = project();
    writeFileSync(join(cwd, 'plan.json'), '\uFEFF{"plan": "3 buckets", "big": "' + 'x'.repeat(200_000) + '"}');
    const created = cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 's1', '--metadata', '@plan.json']);
    expect(created.status).toBe(0);
    expect(stateOf(cwd).metadata).toMatchObject({ plan: '3 buckets' });
    const piped = cli(cwd, ['update', 's1', '--metadata', '-', '--metadata', '{"c":3}'], {}, '{"findings": "ok"}');
    expect(piped.status).toBe(0);
    expect(stateOf(cwd).metadata).toMatchObject({ plan: '3 buckets', findings: 'ok', c: 3 });
  });

  it.each([
    ['a missing file, named', ['--metadata', '@nope.json'], 2, 'nope.json'],
    ['a folder', ['--metadata', '@sub'], 2, 'sub'],
    ['no file name', ['--metadata', '@'], 2, '@'],
    ['stdin twice', ['--metadata', '-', '--metadata', '-'], 2, 'stdin'],
    ['a file over 1 MiB', ['--metadata', '@large.json'], 2, '1048576'],
    ['a file that is not JSON', ['--metadata', '@secret.json'], 2, 'line 1, column 1'],
    ['a file holding an array', ['--metadata', '@array.json'], 2, 'an array'],
    ['stdin that is not JSON', ['--metadata', '-'], 2, 'line 1, column 1'],
  ])('refuses %s, never echoing the content', (_label, args, status, mentions) => {
    const cwd = withSession();
    mkdirSync(join(cwd, 'sub'));
    writeFileSync(join(cwd, 'large.json'), `{"k":"${'y'.repeat(1024 * 1024)}"}`);
    writeFileSync(join(cwd, 'secret.json'), 'token=hunter2');
    writeFileSync(join(cwd, 'array.json'), '["hunter2"]');
    const before = readFileSync(join(cwd, '.claude', 'session', 's1', 'state.json'), 'utf8');
    const result = cli(cwd, ['update', 's1', ...args], {}, 'hunter2 on stdin');
    expectRefused(result, status, mentions);
    expect(result.stderr).not.toContain('hunter2');
    expect(result.stderr).not.toContain('yyyy');
    expect(readFileSync(join(cwd, '.claude', 'session', 's1', 'state.json'), 'utf8')).toBe(before);
  });
});

describe('colour follows NO_COLOR, FORCE_COLOR, TERM=dumb and the terminal', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0;
  let cwd: string;
  beforeAll(() => {
    cwd = withSession();
  });
  /** `list` with stdout a terminal (through `script`) or a pipe. */
  const list = (terminal: boolean, env: Record<string, string | undefined>): string => {
    const merged: Record<string, string | undefined> = { ...process.env, ...CLEAN, NODE_EXTRA_CA_CERTS: '', ...env };
    for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
    return terminal
      ? spawnSync('script', ['-qec', `"${process.execPath}" "${BIN.cli}" list`, '/dev/null'], {
          cwd,
          env: merged,
          encoding: 'utf8',
        }).stdout
      : spawnSync(process.execPath, [BIN.cli, 'list'], { cwd, env: merged, encoding: 'utf8' }).stdout;
  };
  const cases: [boolean, Record<string, string>, boolean][] = [
    [true, {}, true],
    [true, { TERM: 'dumb' }, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { FORCE_COLOR: '0' }, false],
    [true, { FORCE_COLOR: 'false' }, false],
    [false, {}, false],
    [false, { FORCE_COLOR: '1' }, true],
    [false, { FORCE_COLOR: '3' }, true],
    [false, { FORCE_COLOR: '' }, true],
    [true, { FORCE_COLOR: '1', TERM: 'dumb' }, true],
  ];
  // The terminal cases need util-linux's `script`: without it they are visible skips, never silent passes.
  it.each(cases.filter(([terminal]) => !terminal || hasScript))(
    'terminal %p, env %p: colour %p',
    (terminal, env, coloured) => {
      const output = list(terminal, env);
      expect(output).toContain('architect');
      expect(output.includes('\u001b[')).toBe(coloured);
    },
  );
  const skipped = cases.filter(([terminal]) => terminal && !hasScript);
  if (skipped.length > 0)
    it.skip.each(skipped)('terminal %p, env %p: colour %p (needs `script` from util-linux)', () => undefined);
});

describe('messages from a hostile folder', () => {
  // yargs' ESM build, bundled, looked for its translations at <cwd>/../../../locales/<LANG>.json: a folder above
  // the working one could rewrite the CLI's messages (or break them).
  it.each(['en_US.UTF-8', 'C', 'fr_FR.UTF-8'])('reads no locale file above the working folder (LANG=%s)', (lang) => {
    const top = join(base, `locales-${lang.replace(/\W/g, '')}`);
    const cwd = join(top, 'a', 'b', 'c');
    mkdirSync(join(top, 'locales'), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    const planted = { 'Not enough non-option arguments: got %s, need at least %s': { one: 'PWNED', other: 'PWNED' } };
    for (const name of ['en', 'en_US', 'C', 'fr', 'fr_FR'])
      writeFileSync(join(top, 'locales', `${name}.json`), JSON.stringify(planted));
    const result = cli(cwd, ['get'], { LANG: lang, LC_ALL: undefined, LANGUAGE: undefined });
    expect(result.stderr).not.toContain('PWNED');
    expectRefused(result, 2, 'got fewer arguments');
  });
});
