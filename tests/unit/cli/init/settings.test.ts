import { type SessionError } from '../../../../src/core/errors';
import { addHooks, nodeCommand, removeHooks, WIRINGS } from '../../../../src/cli/init/settings';

const commands = {
  'pre-delegate': nodeCommand('/n v/node', '/opt/a s/pre-delegate.cjs'),
  'subagent-stop': nodeCommand('/n v/node', '/opt/a s/subagent-stop.cjs'),
};

describe('init settings merge', () => {
  it('quotes paths for the shell', () => {
    expect(nodeCommand('/usr/bin/node', '/x/"$HOME`/p.cjs')).toBe('"/usr/bin/node" "/x/\\"\\$HOME\\`/p.cjs"');
  });

  it("updates the same install's hooks written with another node, and removes every form", () => {
    const earlier = {
      hooks: {
        SubagentStop: [{ hooks: [{ type: 'command', command: 'node "/opt/a s/subagent-stop.cjs"', timeout: 30 }] }],
      },
    };
    const { settings, changes } = addHooks(earlier, commands);
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'updated', event: 'SubagentStop' }));
    expect((settings.hooks as typeof earlier.hooks).SubagentStop).toEqual([
      { hooks: [{ type: 'command', command: commands['subagent-stop'], timeout: 30 }] },
    ]);
    expect(removeHooks(earlier, commands).settings).toEqual({});
  });

  it('adds one group per wiring, then keeps them on a second run', () => {
    const first = addHooks({ env: { A: '1' } }, commands);
    expect(first.changes.filter((c) => c.kind === 'added')).toHaveLength(WIRINGS.length);
    expect(first.settings.env).toEqual({ A: '1' });
    const second = addHooks(first.settings, commands);
    expect(second.changes.every((c) => c.kind === 'kept')).toBe(true);
    expect(second.settings).toEqual(first.settings);
  });

  // An earlier version's matcher (PreToolUse `Task|Agent` before SendMessage, issue 34): moved to today's, never a
  // second group that would start the same hook twice for one call; a user's handler in that group stays where it was.
  it("moves our handler from an earlier version's matcher to today's, leaving a user's beside it", () => {
    const pre = commands['pre-delegate'];
    const stop = commands['subagent-stop'];
    const earlier = {
      hooks: {
        PreToolUse: [
          { matcher: 'Task|Agent', hooks: [{ type: 'command', command: pre, timeout: 30 }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] },
        ],
        PostToolUse: [
          {
            matcher: 'Task',
            hooks: [
              { type: 'command', command: 'echo theirs' },
              { type: 'command', command: stop, timeout: 30 },
            ],
          },
        ],
      },
    };
    const { settings, changes } = addHooks(earlier, commands);
    const hooks = settings.hooks as Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    const ours = (event: string, command: string) =>
      hooks[event]!.filter((group) => group.hooks.some((h) => h.command === command)).map((g) => g.matcher);
    const wired = (event: string) => WIRINGS.find((w) => w.event === event)!.matcher;
    expect(ours('PreToolUse', pre)).toEqual([wired('PreToolUse')]);
    expect(ours('PostToolUse', stop)).toEqual([wired('PostToolUse')]);
    expect(hooks.PreToolUse).toContainEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] });
    expect(hooks.PostToolUse).toContainEqual({ matcher: 'Task', hooks: [{ type: 'command', command: 'echo theirs' }] });
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'updated', event: 'PreToolUse' }));
    // A second run keeps what the first wrote.
    const again = addHooks(settings, commands);
    expect(again.settings).toEqual(settings);
    expect(again.changes.every((c) => c.kind === 'kept')).toBe(true);
  });

  it('reports another copy of our bins and leaves it alone', () => {
    const other = {
      hooks: { SubagentStop: [{ hooks: [{ type: 'command', command: 'node /old/subagent-stop.cjs' }] }] },
    };
    const { settings, changes } = addHooks(other, commands);
    expect(changes).toContainEqual(
      expect.objectContaining({ kind: 'other', event: 'SubagentStop', command: 'node /old/subagent-stop.cjs' }),
    );
    expect((settings.hooks as typeof other.hooks).SubagentStop[0]).toEqual(other.hooks.SubagentStop[0]);
    expect(removeHooks(settings, commands).settings).toEqual(other);
  });

  it('removes only our handlers from a group a user added to', () => {
    type Groups = Record<string, { hooks: { type: string; command: string }[] }[]>;
    const added = addHooks({}, commands).settings as { hooks: Groups };
    added.hooks.SubagentStart![0]!.hooks.push({ type: 'command', command: 'echo mine' });
    const { settings } = removeHooks(added, commands);
    expect(settings.hooks).toEqual({ SubagentStart: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] });
  });

  it('changes nothing when none of our hooks are there', () => {
    const settings = { hooks: { Stop: [] } };
    expect(removeHooks(settings, commands)).toEqual({ settings, changes: [] });
  });

  it.each([{ hooks: [] }, { hooks: { PreToolUse: 'x' } }, { hooks: { PreToolUse: [{ hooks: 'x' }] } }])(
    'refuses a malformed hooks section %j',
    (settings) => {
      expect(() => addHooks(settings, commands)).toThrow(
        expect.objectContaining({ code: 'E_CORRUPT' }) as SessionError,
      );
    },
  );
});

describe('a malformed hooks section: the error says the kind and where, never the value', () => {
  const secret = 'sk-ant-secret-123';
  it.each([
    [{ hooks: [secret] }, '`hooks`', 'an array'],
    [{ hooks: secret }, '`hooks`', 'a string'],
    [{ hooks: { PreToolUse: { key: secret } } }, '`hooks.PreToolUse`', 'an object'],
    [{ hooks: { PreToolUse: [secret] } }, '`hooks.PreToolUse[0]`', 'a string'],
    [{ hooks: { PreToolUse: [{ hooks: { key: secret } }] } }, '`hooks.PreToolUse[].hooks`', 'an object'],
  ])('%j', (settings, where, kind) => {
    let message = '';
    try {
      addHooks(settings as never, commands);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(where);
    expect(message).toContain(`got ${kind}`);
    expect(message).not.toContain(secret);
  });
});
