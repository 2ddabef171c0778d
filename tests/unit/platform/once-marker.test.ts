import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimMarker, markerName } from '../../../src/platform/once-marker';
import { claimOnce } from '../../../src/platform/detached';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-marker-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('claimMarker', () => {
  it('is true once, then false, for each name; the folder and file private', () => {
    const folder = join(dir, 'told');
    expect(claimMarker(folder, 'a@1')).toBe(true);
    expect(claimMarker(folder, 'a@1')).toBe(false);
    expect(claimMarker(folder, 'a@2')).toBe(true);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, 'a@1')).mode & 0o777).toBe(0o600);
  });

  it.each(['', '.', '..', 'a/b', 'x'.repeat(201), 'a\nb'])('refuses the name %j (E_USAGE)', (name) => {
    expect(() => claimMarker(dir, name)).toThrow(expect.objectContaining({ code: 'E_USAGE' }));
  });

  it('never writes through a link at the marker’s name (it counts as claimed), and refuses a folder that is a file', () => {
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'linked'));
    expect(claimMarker(dir, 'linked')).toBe(false);
    expect(() => statSync(join(dir, 'elsewhere'))).toThrow();
    writeFileSync(join(dir, 'file'), '');
    expect(() => claimMarker(join(dir, 'file'), 'x')).toThrow(expect.objectContaining({ code: 'E_REFUSED' }));
  });
});

describe('markerName', () => {
  it.each([
    ['agent-x-20261207-cb8ce8ff@2026-12-07T05:15:03.585Z', 'agent-x-20261207-cb8ce8ff@2026-12-07T05_15_03.585Z'],
    ['a/../b', 'a_.._b'],
    ['..', '_..'],
    ['', '_'],
  ])('%j → %j', (text, name) => {
    expect(markerName(text)).toBe(name);
    expect(() => claimMarker(dir, name)).not.toThrow();
  });
});

it('claimOnce still claims a free-form key once (notify’s markers)', () => {
  expect(claimOnce(dir, 'any key: /x')).toBe(true);
  expect(claimOnce(dir, 'any key: /x')).toBe(false);
});
