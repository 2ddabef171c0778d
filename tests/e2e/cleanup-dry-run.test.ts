// Issue 30 item 12: `cleanup --dry-run` names what the real run removes, leftovers of killed writers included (a
// half-made folder, a temp file, a dead owner's lock, the Claude pointer of a session the run removes), one item a
// line. The built bins on a project's own file store.
import { existsSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, projectMaker, run, tempDir } from '../helpers';

const base = tempDir();
const project = projectMaker(base);
const OLD = new Date('2020-01-01T00:00:00Z');

it('a dry run names every session and leftover the real run then removes, one a line', () => {
  const cwd = project();
  const store = join(cwd, '.claude', 'session');
  const env = { CLAUDE_PROJECT_DIR: cwd };
  const cli = (args: string[]) => run(BIN.cli, args, { cwd, env });
  const ok = (result: ReturnType<typeof run>) => {
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    return result.stdout;
  };
  // A Claude agent's session, stopped, idle since 2020: the run removes it, and its pointer with it.
  const start = { hook_event_name: 'SubagentStart', cwd, session_id: 's', agent_id: 'c1', agent_type: 'old' };
  ok(run(BIN.preDelegate, [], { cwd, env, input: JSON.stringify(start) }));
  const stale = readdirSync(store).find((name) => name.startsWith('agent-'))!;
  ok(cli(['update', stale, '--phase', 'planning']));
  ok(run(BIN.subagentStop, [], { cwd, env, input: JSON.stringify({ ...start, hook_event_name: 'SubagentStop' }) }));
  const file = join(store, stale, 'state.json');
  const state = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify({ ...state, last_updated: OLD.toISOString() }));
  const pointer = join(store, '.claude-agents', Buffer.from('c1').toString('hex'));
  expect(existsSync(pointer)).toBe(true);
  // A fresh session the run keeps, holding a killed writer's temp file.
  const kept = ok(cli(['create', '--agent', 'fresh', '--purpose', 'p'])).trim();
  const leftovers = [
    join(store, '.creating-a1b2c3'),
    join(store, kept, '.state.json.123.0000abcd.tmp'),
    join(store, '.locks', 'agent-61.lock'),
    pointer,
  ];
  mkdirSync(leftovers[0]!);
  writeFileSync(join(leftovers[0]!, 'state.json'), '{}');
  writeFileSync(leftovers[1]!, '{');
  mkdirSync(join(store, '.locks'), { recursive: true });
  // A lock of a process that cannot exist (above the largest pid): its owner is gone.
  writeFileSync(leftovers[2]!, `${2 ** 22 + 1} 1 ${Date.now()} x`);
  for (const path of [...leftovers, join(leftovers[0]!, 'state.json')]) utimesSync(path, OLD, OLD);

  const dry = JSON.parse(ok(cli(['cleanup', '--hours', '24', '--dry-run', '--json'])));
  expect(dry).toMatchObject({ removed: [stale], leftovers_removed: 4 });
  expect([...dry.leftover_paths].sort()).toEqual([...leftovers].sort());
  const text = ok(cli(['cleanup', '--hours', '24', '--dry-run']));
  expect(text.split('\n')).toEqual(
    expect.arrayContaining([
      'Would remove 1 session idle for more than 24h:',
      `  ${stale}`,
      expect.stringMatching(/^Would remove 4 leftovers of killed writers .*:$/),
      ...leftovers.map((path) => `  ${path}`),
    ]),
  );
  for (const path of leftovers) expect(existsSync(path)).toBe(true);

  const real = JSON.parse(ok(cli(['cleanup', '--hours', '24', '--json'])));
  expect(real).toMatchObject({ removed: [stale], leftovers_removed: 4 });
  expect([...real.leftover_paths].sort()).toEqual([...dry.leftover_paths].sort());
  for (const path of leftovers) expect(existsSync(path)).toBe(false);
  expect(existsSync(join(store, kept, 'state.json'))).toBe(true);
});
