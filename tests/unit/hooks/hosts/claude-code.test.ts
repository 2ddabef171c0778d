import { claudeCodeLaunch, isClaudeCodePayload, isClaudeCodeText } from '../../../../src/hooks/hosts/claude-code';

describe('Claude Code payloads', () => {
  it('tells Claude Code payloads from seed-protocol ones', () => {
    expect(isClaudeCodePayload({ hook_event_name: 'Stop' })).toBe(true);
    expect(isClaudeCodePayload({ agent_name: 'x' })).toBe(false);
    expect(isClaudeCodePayload([{ hook_event_name: 'Stop' }])).toBe(false);
    expect(isClaudeCodePayload({ hook_event_name: 3 })).toBe(false);
  });

  it.each([
    ['{"session_id":"s","hook_event_name":"PreToolUse","tool_input":{"prompt":"xx', true],
    ['{ "hook_event_name" : "SubagentStop", "agent_id": "a', true],
    ['{"agent_name":"x","note":"{\\"hook_event_name\\":\\"Stop\\"}","task_id":"T', false],
    ['{"agent_name":"x","hook_event_name":3', false],
    ['garbage', false],
  ])('tells an unreadable Claude Code payload by its text: %s', (text, expected) => {
    expect(isClaudeCodeText(text)).toBe(expected);
  });
});

describe('what Claude Code tells its hooks of the session', () => {
  it.each([
    [
      { CLAUDE_CODE_SESSION_ATTENDED: '1', CLAUDE_CODE_ENTRYPOINT: 'cli' },
      { attended: true, entrypoint: 'cli' },
    ],
    [
      { CLAUDE_CODE_SESSION_ATTENDED: '0', CLAUDE_CODE_ENTRYPOINT: 'sdk-cli' },
      { attended: false, entrypoint: 'sdk-cli' },
    ],
    [{ CLAUDE_CODE_SESSION_ATTENDED: '0', CLAUDE_CODE_ENTRYPOINT: '' }, { attended: false }],
    [{ CLAUDE_CODE_SESSION_ATTENDED: '0' }, { attended: false }],
    // An older Claude Code says neither, or something this version does not know: the sub-agent's files decide.
    [{ CLAUDE_CODE_ENTRYPOINT: 'sdk-cli' }, undefined],
    [{ CLAUDE_CODE_SESSION_ATTENDED: 'yes' }, undefined],
    [{}, undefined],
  ])('%j: %j', (env, expected) => {
    expect(claudeCodeLaunch(env)).toEqual(expected);
  });
});
