import { codeOf } from '../../helpers';
import { agentShellOf, assertNotAgentShell, decisionOriginOf } from '../../../src/core/origin';

const proc = (pid: number, ...names: string[]) => ({ pid, names });

describe('agentShellOf', () => {
  it.each([
    ['CLAUDECODE', { CLAUDECODE: '1' }],
    ['CODEX_THREAD_ID', { CODEX_THREAD_ID: '0199a213' }],
    ['CODEX_SANDBOX', { CODEX_SANDBOX: 'seatbelt' }],
    ['CODEX_SANDBOX_NETWORK_DISABLED', { CODEX_SANDBOX_NETWORK_DISABLED: '1' }],
    ['OPENCODE', { OPENCODE: '1' }],
    ['OPENCODE_PID', { OPENCODE_PID: '4242' }],
    ['AGENT', { AGENT: '1' }],
  ])('a command whose environment holds %s', (name, env) => {
    expect(agentShellOf(env, [])).toContain(name);
  });

  it('an empty variable marks nothing, nor AGENT set to anything but 1 (a name users give their own variables)', () => {
    expect(agentShellOf({ CLAUDECODE: '' }, [])).toBeNull();
    expect(agentShellOf({ AGENT: 'build-17' }, [])).toBeNull();
    expect(agentShellOf({ AGENT: '0' }, [])).toBeNull();
  });

  it('names the host the sign belongs to', () => {
    expect(agentShellOf({ OPENCODE: '1' }, [])).toBe("opencode's environment variable OPENCODE is set");
    expect(agentShellOf({ AGENT: '1' }, [])).toBe("opencode's environment variable AGENT is set to 1");
  });

  it.each([
    ['the native binary by its comm', proc(40, 'claude', 'claude')],
    ['the npm package binary', proc(41, 'claude.exe', '/p/node_modules/@anthropic-ai/claude-code/bin/claude.exe')],
    ['Codex', proc(42, 'codex', '/usr/local/bin/codex')],
    ['Codex launched by node', proc(43, 'node', 'node', '/usr/lib/node_modules/@openai/codex/bin/codex.js')],
    ['an upper-case name', proc(44, 'Claude')],
    ['opencode’s bundled binary', proc(45, 'opencode', '/home/me/.opencode/bin/opencode')],
    ['opencode through its npm launcher', proc(46, 'node', 'node', '/usr/lib/node_modules/opencode-ai/bin/opencode')],
  ])('an ancestor process: %s', (_label, ancestor) => {
    expect(agentShellOf({}, [proc(10, 'bash', '/bin/bash'), ancestor])).toContain(String(ancestor.pid));
  });

  it.each([
    ['a shell and a terminal', [proc(10, 'bash', '-bash'), proc(9, 'sshd', 'sshd: me@pts/0')]],
    ['names that only contain an agent name', [proc(10, 'claude-helper'), proc(9, 'mycodex', '/opt/opencodes')]],
    ['no /proc (another system)', []],
  ])('marks nothing for %s', (_label, ancestors) => {
    expect(agentShellOf({ USER: 'me' }, ancestors)).toBeNull();
  });
});

describe('decisionOriginOf and the refusal', () => {
  it('keeps the OS user and terminal facts, and says why a shell is an agent’s', () => {
    const facts = { osUser: 'bob', terminal: true, env: {}, ancestors: [proc(7, 'claude')] };
    const origin = decisionOriginOf(facts);
    expect(origin).toEqual({ os_user: 'bob', terminal: true, agent_shell: 'its ancestor process 7 is `claude`' });
    expect(codeOf(() => assertNotAgentShell(origin, 'approve'))).toBe('E_AGENT_SHELL');
    expect(codeOf(() => assertNotAgentShell({ ...origin, agent_shell: null }, 'approve'))).toBeUndefined();
  });
});
