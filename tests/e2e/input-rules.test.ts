import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, run, tempDir } from '../helpers';
import { runOutsideAgent } from '../support/outside-agent';

// Issue 20, through the built CLI: JSON to a terminal (8).
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
