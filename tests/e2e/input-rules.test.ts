import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, run, tempDir } from '../helpers';
import { runOutsideAgent } from '../support/outside-agent';

// Issue 20, through the built CLI: JSON to a terminal (8), one metadata rule for import (14), a total metadata cap
// (17b), and what a refused import of an existing id says.
const dir = tempDir();
let n = 0;
let store: string;
beforeEach(() => {
  store = join(dir, `store-${n++}`);
});
const env = () => ({ AGENT_SESSION_DIR: store, AGENT_SESSION_CONFIG: '' });
const cli = (args: readonly string[], input?: string) =>
  run(BIN.cli, args, { cwd: dir, env: env(), ...(input === undefined ? {} : { input }) });
const stateFile = (id: string) => join(store, id, 'state.json');
const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { k: value };
  return value;
};

describe('get and export to a terminal (item 8)', () => {
  // A CSI (U+009B) and a right-to-left override (U+202E): JSON.stringify writes both as they are.
  const HOSTILE = 'a\u009b31mred\u202eevil\u007f';

  it('escape C1 controls and bidi overrides as \\u escapes (the same JSON value); to a pipe, byte-exact JSON', () => {
    const id = cli([
      'create',
      '--agent',
      'a',
      '--purpose',
      'p',
      '--metadata',
      JSON.stringify({ x: HOSTILE }),
    ]).stdout.trim();
    const stored = JSON.parse(readFileSync(stateFile(id), 'utf8'));
    for (const command of ['get', 'export']) {
      const tty = runOutsideAgent(BIN.cli, [command, id], { cwd: dir, env: env(), terminal: true });
      expect(tty.status).toBe(0);
      expect(tty.stdout).not.toMatch(/[\u007f-\u009f\u202e]/);
      expect(tty.stdout).toContain('a\\u009b31mred\\u202eevil\\u007f');
      const parsed = JSON.parse(tty.stdout);
      expect(command === 'get' ? parsed : parsed.session).toEqual(stored);
    }
    // Scripts read it through a pipe: exactly JSON.stringify's text, raw characters and all.
    expect(cli(['get', id]).stdout).toBe(`${JSON.stringify(stored, null, 2)}\n`);
    expect(cli(['export', id]).stdout).toContain(HOSTILE);
  });
});

describe('one metadata rule for every way in (items 14 and 17b)', () => {
  function exported(metadata: unknown): string {
    const id = cli(['create', '--agent', 'a', '--purpose', 'p']).stdout.trim();
    const document = JSON.parse(cli(['export', id]).stdout);
    document.session.metadata = metadata;
    cli(['delete', id]);
    const file = join(dir, `export-${n++}.json`);
    writeFileSync(file, JSON.stringify(document));
    return file;
  }

  it('import refuses metadata nested past 100 levels, as create and update do (exit 4, one line)', () => {
    const deep = { deep: nested(150) };
    expect(cli(['create', '--agent', 'a', '--purpose', 'p', '--metadata', '-'], JSON.stringify(deep)).status).toBe(2);
    const result = cli(['import', exported(deep)]);
    expect(result.status).toBe(4);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(cli(['list', '--json']).stdout)).toEqual([]);
    // At the limit, all three take it.
    expect(cli(['import', exported({ deep: nested(99) })]).status).toBe(0);
  });

  it('repeated update --metadata stops at 1 MiB in all (exit 2, naming the size and the limit), nothing written', () => {
    const id = cli(['create', '--agent', 'a', '--purpose', 'p']).stdout.trim();
    const chunk = (key: string) => JSON.stringify({ [key]: 'x'.repeat(400 * 1024) });
    expect(cli(['update', id, '--metadata', '-'], chunk('k1')).status).toBe(0);
    expect(cli(['update', id, '--metadata', '-'], chunk('k2')).status).toBe(0);
    const before = readFileSync(stateFile(id), 'utf8');
    const refused = cli(['update', id, '--metadata', '-'], chunk('k3'));
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('1048576');
    expect(refused.stderr).toMatch(/\b12\d{5}\b/);
    expect(readFileSync(stateFile(id), 'utf8')).toBe(before);
    // Replacing a key keeps the total within the limit: still taken.
    expect(cli(['update', id, '--metadata', '-'], chunk('k2')).status).toBe(0);
  });

  it('import refuses metadata past 1 MiB in all', () => {
    const big = { a: 'x'.repeat(600 * 1024), b: 'y'.repeat(600 * 1024) };
    expect(cli(['import', exported(big)]).status).toBe(4);
    expect(JSON.parse(cli(['list', '--json']).stdout)).toEqual([]);
  });
});

describe('import of an id that exists', () => {
  it('says that import never overwrites (exit 4), not create', () => {
    const id = cli(['create', '--agent', 'a', '--purpose', 'p']).stdout.trim();
    const file = join(dir, `export-${n++}.json`);
    expect(cli(['export', id, '--out', file]).status).toBe(0);
    const result = cli(['import', file]);
    expect(result.status).toBe(4);
    expect(result.stderr).toContain(id);
    expect(result.stderr).toMatch(/\bimport\b/);
    expect(result.stderr).not.toMatch(/\bcreate\b/);
  });
});

describe('import of a deeply nested file (issue 30, item 11)', () => {
  it.each([
    ['a million-deep array', `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`],
    [
      'a session nested 100,000 deep',
      `{"format":"agent-session/1","exported_at":"2026-11-28T00:00:00Z","session":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
    ],
  ])('%s: exit 2, one line naming the file and the nesting limit, nothing stored', (_label, text) => {
    const file = join(dir, 'deep.json');
    writeFileSync(file, text);
    const result = cli(['import', file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^agent-session: [^\n]*deep\.json[^\n]*nested at most 1000 levels[^\n]*\n$/);
  });
});
