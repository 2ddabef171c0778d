import { isClaudeCodePayload, isClaudeCodeText } from '../../../../src/hooks/hosts/claude-code';

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
