import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errorKind, fromCodex } from '../../../../src/hooks/hosts/codex';
import { hostArgument, hostOption } from '../../../../src/hooks/process-io';

const FIXTURES = resolve(__dirname, '../../../fixtures/codex');
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}-0.169.0.json`), 'utf8')) as Record<string, unknown> & {
    hook_event_name: string;
  };

describe('fromCodex: a Codex 0.169.0 payload read as Claude Code’s', () => {
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
      expect(file).toMatch(/-0\.169\.0\.json$/);
    }
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
