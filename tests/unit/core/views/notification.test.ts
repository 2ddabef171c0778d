import type { DecisionRow } from '../../../../src/core/views/live';
import {
  isNotified,
  notificationKey,
  notificationOf,
  notifyTarget,
  notifyTargets,
  targetLabel,
} from '../../../../src/core/views/notification';

const ROW: DecisionRow = {
  kind: 'approval',
  id: 'agent-20261128-064508-faf7cbb6',
  agent: 'db-migrator',
  project: 'github.com/acme/api',
  host: 'claude-code',
  phase: 'approval',
  waiting_since: '2026-11-28T06:45:09.991Z',
  resumable: true,
  expires_at: '2026-11-28T07:15:09.991Z',
  waits_on: { source: 'plan', text: 'drop the old table' },
  allows: 'drop the old table',
  allows_cut: false,
  call: null,
  task: null,
  last_message: null,
  parked: null,
  hidden: [],
  unverified: false,
  commands: ['agent-session approve agent-20261128-064508-faf7cbb6', 'agent-session reject … --reason'],
};

describe('notifyTarget', () => {
  it.each([
    ['https://hooks.slack.com/services/T/B/x', 'url'],
    ['HTTP://127.0.0.1:9/x', 'url'],
    ['  http://127.0.0.1:9/x ', 'url'],
    ['notify-send agent-session', 'command'],
    ['curl -d @- https://example.com', 'command'],
    ['ftp://example.com', 'command'],
  ])('%j is a %s', (setting, kind) => {
    expect(notifyTarget(setting).kind).toBe(kind);
  });
});

describe('notifyTargets and targetLabel', () => {
  it('names each target of a list in its order, a URL without its path (its secret), a command cut short', () => {
    const targets = notifyTargets(['https://hooks.slack.com/services/T/B/secret', `notify-send ${'x'.repeat(80)}`]);
    expect(targets.map((target) => target.kind)).toEqual(['url', 'command']);
    expect(targets.map(targetLabel)).toEqual([
      'https://hooks.slack.com/****',
      `command notify-send ${'x'.repeat(47)}…`,
    ]);
    expect(notifyTargets('notify-send x')).toEqual([{ kind: 'command', command: 'notify-send x' }]);
  });
});

describe('isNotified', () => {
  it.each<[Partial<DecisionRow>, boolean]>([
    [{}, true],
    [{ resumable: false }, false],
    [{ kind: 'interrupted', resumable: false }, true],
    [{ kind: 'waiting', phase: 'planning' }, false],
  ])('%j → %s', (overrides, expected) => {
    expect(isNotified({ ...ROW, ...overrides })).toBe(expected);
  });
});

describe('notificationOf', () => {
  it('names the short id, the agent, the project, what it waits for and the command; the page when given', () => {
    const plain = notificationOf(ROW);
    expect(plain).toMatchObject({
      short_id: 'faf7cbb6',
      agent: 'db-migrator',
      kind: 'approval',
      waits_for: 'plan: drop the old table',
      command: ROW.commands[0],
      page: null,
    });
    expect(plain.text).toBe(
      'agent-session: db-migrator (faf7cbb6, github.com/acme/api) waits for approval (plan: drop the old table). ' +
        'Decide: `agent-session approve agent-20261128-064508-faf7cbb6`',
    );
    // The link leads to the decision on the page, never with the token (issue 44 item 2).
    const linked = notificationOf(ROW, 'http://127.0.0.1:7/');
    expect(linked.page).toBe(`http://127.0.0.1:7/#session=${ROW.id}`);
    expect(linked.text).toMatch(/ or http:\/\/127\.0\.0\.1:7\/#session=agent-20261128-064508-faf7cbb6$/);
    expect(notificationOf({ ...ROW, kind: 'interrupted', phase: 'executing' }).text).toContain(
      'was interrupted in executing',
    );
  });

  it('escapes what Slack reads as links and mentions in the text, and only there', () => {
    const hostile = notificationOf({ ...ROW, agent: '<!channel> & <https://evil|click>' });
    expect(hostile.text).toContain('&lt;!channel&gt; &amp; &lt;https://evil|click&gt;');
    expect(hostile.text).not.toMatch(/[<>]/);
    expect(hostile.agent).toBe('<!channel> & <https://evil|click>');
  });

  it('keys an item by session and wait: the same wait once, a new wait again', () => {
    expect(notificationKey(ROW)).toBe(notificationKey({ ...ROW, allows: 'rewritten' } as typeof ROW));
    expect(notificationKey(ROW)).not.toBe(notificationKey({ ...ROW, waiting_since: '2026-11-28T07:00:00.000Z' }));
  });
});
