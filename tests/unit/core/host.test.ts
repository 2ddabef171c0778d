import { DEFAULT_HOST, hostOf, isHost, withHost } from '../../../src/core/host';
import { withProject } from '../../../src/core/project';
import { newSession } from '../../../src/core/session';
import {
  HOST_SCHEMA_VERSION,
  OPENCODE_HOST_SCHEMA_VERSION,
  parseState,
  PROJECT_SCHEMA_VERSION,
  SCHEMA_VERSION,
} from '../../../src/core/state';
import { codeOf } from '../../helpers';

const at = new Date('2026-11-25T12:00:00.000Z');
const fresh = () => newSession({ agent_id: 'agent-20261125-120000-00000001', agent_name: 'a', purpose: 'p' }, at);

describe('hosts', () => {
  it('reads a session without a host field as Claude Code', () => {
    expect(DEFAULT_HOST).toBe('claude-code');
    expect(hostOf(fresh())).toBe('claude-code');
  });

  it('writes codex as a field with schema_version 6, Claude Code as none (the version its other content needs)', () => {
    const codex = withHost(fresh(), 'codex');
    expect(codex).toMatchObject({ host: 'codex', schema_version: HOST_SCHEMA_VERSION });
    expect(hostOf(codex)).toBe('codex');
    const back = withHost(codex, 'claude-code');
    expect(back.host).toBeUndefined();
    expect('host' in back).toBe(false);
    expect(back.schema_version).toBe(SCHEMA_VERSION);
    expect(withHost(withProject(codex, 'github.com/acme/infra'), 'claude-code').schema_version).toBe(
      PROJECT_SCHEMA_VERSION,
    );
    expect(withHost(fresh(), 'claude-code')).toEqual(fresh());
    expect(withHost(fresh(), 'agent-sdk')).toMatchObject({ host: 'agent-sdk', schema_version: HOST_SCHEMA_VERSION });
  });

  it('parses a version 6 state, and refuses one whose version does not match its host field, or an unknown host', () => {
    const codex = withHost(fresh(), 'codex');
    expect(parseState(JSON.parse(JSON.stringify(codex)))).toEqual(codex);
    expect(codeOf(() => parseState({ ...codex, schema_version: PROJECT_SCHEMA_VERSION }))).toBe('E_CORRUPT');
    expect(codeOf(() => parseState({ ...fresh(), schema_version: HOST_SCHEMA_VERSION }))).toBe('E_CORRUPT');
    // Claude Code is the absence of the field: written out, it is not a state any version makes.
    expect(codeOf(() => parseState({ ...codex, host: 'claude-code' }))).toBe('E_CORRUPT');
    expect(codeOf(() => parseState({ ...codex, host: 'gemini' }))).toBe('E_CORRUPT');
  });

  it('writes opencode with schema_version 11: a version that knows only 6 refuses it by its number, not its field', () => {
    const opencode = withHost(withProject(fresh(), 'github.com/acme/infra'), 'opencode');
    expect(opencode).toMatchObject({ host: 'opencode', schema_version: OPENCODE_HOST_SCHEMA_VERSION });
    expect(OPENCODE_HOST_SCHEMA_VERSION).toBe(11);
    expect(parseState(JSON.parse(JSON.stringify(opencode)))).toEqual(opencode);
    expect(codeOf(() => parseState({ ...opencode, schema_version: HOST_SCHEMA_VERSION }))).toBe('E_CORRUPT');
    expect(codeOf(() => parseState({ ...withHost(fresh(), 'codex'), schema_version: 11 }))).toBe('E_CORRUPT');
    expect(withHost(opencode, 'codex').schema_version).toBe(HOST_SCHEMA_VERSION);
  });

  it('knows its hosts', () => {
    expect(['claude-code', 'codex', 'agent-sdk', 'opencode'].every(isHost)).toBe(true);
    expect([undefined, '', 'Codex', 'gemini', 1].some(isHost)).toBe(false);
  });
});
