import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errorKind, fromCodex } from '../../../../src/hooks/hosts/codex';
import { hostArgument, hostOption } from '../../../../src/hooks/process-io';

const FIXTURES = resolve(__dirname, '../../../fixtures/codex');
const fixture = (name: string, version = '0.169.0') =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}-${version}.json`), 'utf8')) as Record<string, unknown> & {
    hook_event_name: string;
  };

describe('fromCodex: a Codex payload read as Claude Code’s', () => {
  it('passes SessionStart, the main agent’s UserPromptSubmit, SubagentStart and SubagentStop as they are', () => {
    for (const name of ['session-start', 'user-prompt-submit', 'subagent-start', 'subagent-stop']) {
      const payload = fixture(name);
      expect(fromCodex(payload)).toEqual({ payload });
    }
    expect(fixture('subagent-start')).toMatchObject({
      agent_type: 'terraform-architect',
      agent_id: expect.any(String),
    });
  });

  it('leaves a sub-agent’s own UserPromptSubmit alone (its first prompt is not the user’s)', () => {
    expect(fromCodex(fixture('user-prompt-submit-subagent'))).toEqual({ skip: 'subagent_prompt' });
  });

  it('reads a sub-agent’s failed model request as StopFailure, its kind from the API’s error body', () => {
    const failed = fixture('post-model-request-failed');
    const translated = fromCodex(failed);
    expect(translated).toEqual({
      payload: expect.objectContaining({
        hook_event_name: 'StopFailure',
        agent_id: failed.agent_id,
        agent_type: 'terraform-architect',
        error: 'invalid_request',
        error_details: failed.error,
      }),
    });
    expect('status' in (translated as { payload: Record<string, unknown> }).payload).toBe(false);
  });

  it('leaves a completed model request and the main agent’s own failure alone', () => {
    expect(fromCodex(fixture('post-model-request-completed'))).toEqual({ skip: 'model_request_ok' });
    const { agent_id: _id, agent_type: _type, ...main } = fixture('post-model-request-failed');
    expect(fromCodex(main as ReturnType<typeof fixture>)).toEqual({ skip: 'main_agent' });
  });

  it('has a fixture for every file it names, each a payload of the version it says', () => {
    for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.json'))) {
      const payload = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Record<string, unknown>;
      expect(typeof payload.hook_event_name).toBe('string');
      expect(file).toMatch(/-0\.1[4-9]\d\.\d+\.json$/);
    }
  });
});

describe('fromCodex: a spawn_agent call read as Claude Code’s Agent delegation (its hook matcher `Agent`)', () => {
  it.each([
    ['pre-tool-use-agent', '0.171.0'],
    ['pre-tool-use-agent', '0.141.0'],
    ['pre-tool-use-spawn-agent', '0.169.0'],
  ])('%s-%s: subagent_type ⇐ agent_type, prompt ⇐ message; the rest as it came', (name, version) => {
    const payload = fixture(name, version);
    const input = payload.tool_input as { agent_type: string; message: string };
    expect(fromCodex(payload)).toEqual({
      payload: {
        ...payload,
        tool_name: 'Agent',
        tool_input: { subagent_type: input.agent_type, prompt: input.message },
      },
    });
  });

  it('names a spawn without agent_type as Codex does its SubagentStart (`default`), not Claude Code’s default', () => {
    const payload = { ...fixture('pre-tool-use-agent', '0.171.0'), tool_input: { message: 'go' } };
    expect(fromCodex(payload)).toMatchObject({ payload: { tool_input: { subagent_type: 'default', prompt: 'go' } } });
    const blank = { ...payload, tool_input: { agent_type: '  ' } };
    expect(fromCodex(blank)).toMatchObject({ payload: { tool_input: { subagent_type: 'default' } } });
    expect(fromCodex({ ...payload, tool_input: 'not an object' })).toEqual({
      payload: { ...payload, tool_name: 'Agent', tool_input: { subagent_type: 'default' } },
    });
  });

  it('leaves any other tool’s PreToolUse alone (a SendMessage or Task of Codex is not Claude Code’s)', () => {
    for (const tool of ['SendMessage', 'Task', 'Agent', 'send_input', 'exec_command'])
      expect(fromCodex({ ...fixture('pre-tool-use-agent', '0.171.0'), tool_name: tool })).toEqual({
        skip: 'other_tool',
      });
  });

  it('passes PostToolUse unchanged (not wired for Codex; its handler leaves spawn_agent alone)', () => {
    const payload = fixture('post-tool-use-agent', '0.171.0');
    expect(fromCodex(payload)).toEqual({ payload });
  });
});

describe('errorKind', () => {
  it.each([
    [JSON.stringify({ error: { type: 'invalid_request_error', message: 'bad', code: 'bad' } }), 'invalid_request'],
    [JSON.stringify({ error: { type: 'rate_limit_error', message: 'slow down' } }), 'rate_limit'],
    [JSON.stringify({ error: { code: 'usage_limit_reached', message: 'limit' } }), 'rate_limit'],
    [JSON.stringify({ error: { type: 'server_error', message: 'oops' } }), 'server_error'],
    [JSON.stringify({ error: { type: 'overloaded_error' } }), 'overloaded'],
    [JSON.stringify({ error: { code: 'invalid_api_key' } }), 'authentication_failed'],
    [JSON.stringify({ error: { code: 'context_length_exceeded' } }), 'context_length_exceeded'],
    [JSON.stringify({ error: { code: 'Not A Word!' } }), 'unknown'],
    ['stream disconnected before completion: 429 Too Many Requests', 'rate_limit'],
    ['connection reset', 'unknown'],
    [undefined, 'unknown'],
  ])('%p → %p', (body, kind) => {
    expect(errorKind(body)).toBe(kind);
  });
});

describe('the host argument of a hook bin', () => {
  it('reads --host codex, and takes anything else for Claude Code', () => {
    expect(hostArgument(['--host', 'codex'])).toBe('codex');
    expect(hostOption(['--host', 'codex'])).toEqual({ host: 'codex' });
    expect(hostArgument([])).toBeUndefined();
    expect(hostArgument(['--host'])).toBeUndefined();
    expect(hostArgument(['--host', 'gemini'])).toBeUndefined();
    expect(hostOption(['--test'])).toEqual({});
  });
});
