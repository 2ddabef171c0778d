// Issue 30 item 2: a host's text cut at an emoji must not leave half a surrogate pair, which PostgreSQL's jsonb refuses
// (the write failed open and the stop or the interruption was lost: no resume, no carry-on). And a state that already
// holds a lone surrogate (a file written by an older version) is repaired on the way in, so `copy` to PostgreSQL works.
// The built bins on the real server (tests/support/test-database.ts), directly and through the relay.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, projectMaker, run, tempDir } from '../helpers';
import { describeWithDatabase } from '../support/test-database';

const base = tempDir();
const project = projectMaker(base);
const SMILE = '\u{1F600}';
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describeWithDatabase('texts with emojis on PostgreSQL', (db) => {
  afterEach(() => db.truncate());
  const env = (cwd: string, relay: string) => ({
    CLAUDE_PROJECT_DIR: cwd,
    AGENT_SESSION_DATABASE_URL: db.url,
    AGENT_SESSION_DATABASE_SCHEMA: db.schema,
    AGENT_SESSION_RELAY: relay,
  });
  const cli = (cwd: string, args: string[], relay = 'off') => run(BIN.cli, args, { cwd, env: env(cwd, relay) });
  const hook = (cwd: string, input: Record<string, unknown>, relay: string) =>
    run(BIN.preDelegate, [], {
      cwd,
      input: JSON.stringify({ cwd, session_id: 's', agent_type: 'deployer', ...input }),
      env: env(cwd, relay),
    });
  const ok = (result: ReturnType<typeof run>) => {
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    return result.stdout;
  };
  const only = (cwd: string) => {
    const listed = JSON.parse(ok(cli(cwd, ['list', '--json', '--agent', 'deployer']))) as { agent_id: string }[];
    expect(listed).toHaveLength(1);
    return JSON.parse(ok(cli(cwd, ['get', listed[0]!.agent_id])));
  };

  describe.each([['off'], ['on']])('relay %s', (relay) => {
    it('records a SubagentStop whose last message is cut at an emoji, and the next delegation resumes', () => {
      const cwd = project();
      ok(hook(cwd, { hook_event_name: 'SubagentStart', agent_id: 'u1' }, relay));
      ok(cli(cwd, ['update', only(cwd).agent_id, '--phase', 'approval']));
      const message = `${'a'.repeat(998)}${SMILE.repeat(3000)}`;
      ok(hook(cwd, { hook_event_name: 'SubagentStop', agent_id: 'u1', last_assistant_message: message }, relay));
      const stopped = only(cwd);
      expect(stopped.claude).toMatchObject({ agent_id: 'u1', stopped_at: expect.any(String) });
      expect(stopped.claude.last_message).toMatch(/^a{998}…$/);
      ok(hook(cwd, { hook_event_name: 'SubagentStart', agent_id: 'u2' }, relay));
      const resumed = only(cwd);
      expect(resumed.agent_id).toBe(stopped.agent_id);
      expect(resumed.claude).toMatchObject({ agent_id: 'u2', resumed_from: { agent_id: 'u1' } });
    });

    it('records a StopFailure whose message is cut at an emoji, and the next delegation carries the work on', () => {
      const cwd = project();
      ok(hook(cwd, { hook_event_name: 'SubagentStart', agent_id: 'u1' }, relay));
      ok(cli(cwd, ['update', only(cwd).agent_id, '--phase', 'executing', '--metadata', '{"findings":"half applied"}']));
      const message = `${'a'.repeat(298)}${SMILE.repeat(100)}`;
      ok(
        hook(
          cwd,
          { hook_event_name: 'StopFailure', agent_id: 'u1', error: 'rate_limit', last_assistant_message: message },
          relay,
        ),
      );
      const interrupted = only(cwd);
      expect(interrupted.interruption).toMatchObject({ waiting: true, error: 'rate_limit' });
      expect(interrupted.interruption.message).toMatch(/^a{298}…$/);
      ok(hook(cwd, { hook_event_name: 'SubagentStart', agent_id: 'u2' }, relay));
      const carried = only(cwd);
      expect(carried).toMatchObject({
        agent_id: interrupted.agent_id,
        phase: 'executing',
        metadata: { findings: 'half applied' },
        interruption: { waiting: false, carried_on: 1 },
      });
    });
  });

  it('copies a file store whose state holds a lone surrogate to PostgreSQL, written with U+FFFD in its place', async () => {
    const cwd = project();
    const files = join(cwd, 'files');
    const fileCli = (args: string[]) => run(BIN.cli, [...args, '--dir', files], { cwd });
    const id = ok(fileCli(['create', '--agent', 'old', '--purpose', 'p', '--metadata', '{"note":"x"}'])).trim();
    // As an older version wrote it: the text cut inside a pair (JSON.stringify writes the lone half as an escape).
    const path = join(files, id, 'state.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"note": "x"', '"note": "cut \\ud83d", "\\ude00key": 1'));
    expect(JSON.parse(ok(fileCli(['get', id]))).metadata).toEqual({ note: 'cut \uFFFD', '\uFFFDkey': 1 });
    expect(JSON.parse(ok(cli(cwd, ['copy', '--from', files, '--to', db.url, '--json'])))).toMatchObject({ copied: 1 });
    const [row] = await db.sql(`SELECT state::text AS state FROM $s.sessions WHERE id = $1`, [id]);
    expect(row!.state as string).not.toMatch(LONE);
    expect(JSON.parse(row!.state as string).metadata).toEqual({ note: 'cut \uFFFD', '\uFFFDkey': 1 });
    // And an update through PostgreSQL keeps it so.
    ok(cli(cwd, ['update', id, '--metadata', '{"more":1}']));
    expect(JSON.parse(ok(cli(cwd, ['get', id]))).metadata).toEqual({ note: 'cut \uFFFD', '\uFFFDkey': 1, more: 1 });
  });
});
