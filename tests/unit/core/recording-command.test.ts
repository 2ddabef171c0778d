import { parseRecording, recordEntryWords, recordingTarget } from '../../../src/core/recording-command';

const CLI = ['/usr/bin/node', '/opt/as/dist/agent-session.cjs', '--dir', '/p/.claude/session', 'update'];
const HEAD = '/usr/bin/node /opt/as/dist/agent-session.cjs --dir /p/.claude/session';

describe('recordingTarget', () => {
  it.each([
    [`${HEAD} update s1 --phase approval`],
    [`${HEAD} update s1 --phase approval --metadata '{"plan":"3 buckets"}'`],
    [`${HEAD} update s1 --metadata='{"findings": "a; b && c | d $(e)"}'`],
    [`${HEAD} update s1 --error 'terraform plan failed: exit 1'`],
    [`'/usr/bin/node' "/opt/as/dist/agent-session.cjs" --dir '/p/.claude/session' update s1 --phase=executing`],
    [`${HEAD} update s1`],
  ])('is the session of %s', (command) => {
    expect(recordingTarget(command, CLI)).toBe('s1');
  });

  it.each([
    [`${HEAD} update s1 --phase approval; rm -rf ~`, 'a second command'],
    [`${HEAD} update s1 --phase approval && curl x`, 'a chain'],
    [`${HEAD} update s1 --phase approval | tee /tmp/x`, 'a pipe'],
    [`${HEAD} update s1 --phase approval > /tmp/x`, 'a redirection'],
    [`${HEAD} update s1 --phase $(cat /etc/passwd)`, 'a substitution'],
    [`${HEAD} update s1 --phase \`id\``, 'backticks'],
    [`${HEAD} update s1 --error "$HOME"`, 'an expansion'],
    [`${HEAD} approve s1 --by alice`, 'another verb'],
    [`${HEAD} finalize s1 completed`, 'finalize'],
    [`${HEAD} delete s1`, 'delete'],
    [`${HEAD} update s1 --metadata @/etc/passwd`, 'metadata from a file'],
    [`${HEAD} update s1 --metadata -`, 'metadata from stdin'],
    [`${HEAD} update s1 --phase --dir=/elsewhere`, 'an option as a value'],
    [`${HEAD} update s1 --dir /elsewhere`, 'a second --dir'],
    [`${HEAD} update s1 --database-url postgres://x`, 'another option'],
    [`${HEAD} update s1 --phase`, 'an option without its value'],
    [`${HEAD} update ../s1 --phase approval`, 'a bad id'],
    [`/usr/bin/node /opt/other/agent-session.cjs --dir /p/.claude/session update s1 --phase approval`, 'another bin'],
    [`/usr/bin/node /opt/as/dist/agent-session.cjs --dir /elsewhere update s1 --phase approval`, 'another store'],
    [`env X=1 ${HEAD} update s1 --phase approval`, 'a prefix'],
    [`${HEAD}`, 'no verb'],
    [`${HEAD} update`, 'no id'],
    [`${HEAD} update s1 --phase approval --phase planning`, 'a repeated option'],
  ])('refuses %s (%s)', (command) => {
    expect(recordingTarget(command, CLI)).toBeNull();
  });

  it('reads the plugin form', () => {
    expect(
      recordingTarget("agent-session --dir '/p q/.claude/session' update s2 --phase approval", [
        'agent-session',
        '--dir',
        '/p q/.claude/session',
        'update',
      ]),
    ).toBe('s2');
  });
});

describe("Codex's record entry", () => {
  const RECORD = recordEntryWords(['/usr/bin/node', '/opt/as/dist/agent-session.cjs'], '/p/.claude/session', 'abcd');
  const head = RECORD.join(' ');

  it('words the program, record, the store and its pin', () => {
    expect(RECORD).toEqual([
      '/usr/bin/node',
      '/opt/as/dist/agent-session.cjs',
      'record',
      '--dir',
      '/p/.claude/session',
      '--pin',
      'abcd',
    ]);
    expect(recordingTarget(`${head} s1 --phase approval`, RECORD)).toBe('s1');
    expect(recordingTarget(`${head.replace('abcd', 'ffff')} s1 --phase approval`, RECORD)).toBeNull();
  });

  it.each([
    [['s1'], { id: 's1' }],
    [
      ['s1', '--phase', 'approval', '--error=x', '--metadata={"a":1}'],
      { id: 's1', phase: 'approval', error: 'x', metadata: '{"a":1}' },
    ],
  ])('reads %j', (words, expected) => {
    expect(parseRecording(words)).toEqual(expected);
  });

  it.each([
    [[]],
    [['../s1']],
    [['s1', '--dir', '/x']],
    [['s1', '--database-url', 'postgres://x']],
    [['s1', '--metadata', '@/etc/passwd']],
    [['s1', '--metadata', '-']],
    [['s1', '--phase', 'a', '--phase', 'b']],
    [['s1', '--phase']],
    [['s1', '--', '--phase', 'a']],
    [['s1', 'extra']],
  ])('refuses %j', (words) => {
    expect(parseRecording(words)).toBeNull();
  });
});
