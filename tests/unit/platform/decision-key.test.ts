import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf } from '../../helpers';
import { decisionKeyPath, userDecisionSeal } from '../../../src/platform/decision-key';

// Issue 40 item 3: the key that seals this user's decisions, in the user's data folder, private, made on first use.
let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-session-key-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));
const env = () => ({ HOME: join(base, 'home'), XDG_DATA_HOME: join(base, 'data') });

describe('the decision key', () => {
  it('lives in the user data folder; verify makes nothing, sign makes it 0600 in a 0700 folder', () => {
    const path = decisionKeyPath(env())!;
    expect(path).toBe(join(base, 'data', 'agent-session', 'key'));
    const seal = userDecisionSeal(env());
    expect(seal.verify('text', 'a'.repeat(64))).toBe(false);
    expect(() => statSync(path)).toThrow();
    const mac = seal.sign('text');
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(base, 'data', 'agent-session')).mode & 0o777).toBe(0o700);
    // Another process of the same user (a new seal) reads the same key.
    const again = userDecisionSeal(env());
    expect(again.verify('text', mac)).toBe(true);
    expect(again.verify('other text', mac)).toBe(false);
    expect(again.verify('text', 'not hex')).toBe(false);
    expect(again.sign('text')).toBe(mac);
  });

  it('another user data folder is another key', () => {
    const mac = userDecisionSeal(env()).sign('text');
    const other = userDecisionSeal({ ...env(), XDG_DATA_HOME: join(base, 'other') });
    expect(other.verify('text', mac)).toBe(false);
    expect(other.sign('text')).not.toBe(mac);
  });

  it.each([
    ['a short file', (path: string) => writeFileSync(path, 'abc\n')],
    ['a folder', (path: string) => mkdirSync(path)],
    [
      'a link to a key',
      (path: string) => {
        writeFileSync(join(base, 'elsewhere'), `${'ab'.repeat(32)}\n`);
        symlinkSync(join(base, 'elsewhere'), path);
      },
    ],
  ])('refuses %s in its place (E_IO), never signs with it', (_case, plant) => {
    const path = decisionKeyPath(env())!;
    mkdirSync(join(base, 'data', 'agent-session'), { recursive: true });
    plant(path);
    expect(codeOf(() => userDecisionSeal(env()).sign('text'))).toBe('E_IO');
    expect(codeOf(() => userDecisionSeal(env()).verify('text', 'a'.repeat(64)))).toBe('E_IO');
  });

  it('keeps the key as 64 hex digits and a newline', () => {
    userDecisionSeal(env()).sign('text');
    expect(readFileSync(decisionKeyPath(env())!, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });
});
