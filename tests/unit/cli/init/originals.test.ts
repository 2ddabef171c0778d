import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  forgetOriginal,
  notePluginEnabled,
  originalMatching,
  pluginEnabledByInit,
  rememberOriginal,
  restoreOriginal,
} from '../../../../src/cli/init/originals';

let project: string;
let file: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'agent-session-originals-'));
  file = join(project, '.claude', 'settings.json');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('what init found in a settings file, given back at --uninstall', () => {
  it('gives back the bytes of a file in a layout of its own, and its mode, when what is left is what was there', () => {
    mkdirSync(join(project, '.claude'));
    const text = '{"model":"opus",  "permissions": {"allow": []}}\n';
    writeFileSync(file, text, { mode: 0o640 });
    rememberOriginal(file);
    // Later changes never replace the first original.
    writeFileSync(file, '{"model":"opus","permissions":{"allow":[]},"hooks":{}}');
    rememberOriginal(file);
    const left = { permissions: { allow: [] }, model: 'opus', enabledPlugins: {} };
    const original = originalMatching(file, left);
    expect(original).toEqual({ text });
    restoreOriginal(file, original!);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    // The record goes with it, and so does the backups folder it alone needed.
    expect(readdirSync(join(project, '.claude'))).toEqual(['settings.json']);
  });

  it('does not give back a file someone changed since (then only our part goes)', () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(file, '{"model":"opus"}');
    rememberOriginal(file);
    expect(originalMatching(file, { model: 'sonnet' })).toBeNull();
    forgetOriginal(file);
    expect(originalMatching(file, { model: 'opus' })).toBeNull();
  });

  it('a file that was not there (nor its .claude/): no file is what it gives back, for empty settings only', () => {
    rememberOriginal(file);
    expect(originalMatching(file, { model: 'opus' })).toBeNull();
    expect(originalMatching(file, { extraKnownMarketplaces: {} })).toEqual({ absent: true });
    writeFileSync(file, '{}');
    restoreOriginal(file, { absent: true });
    expect(readdirSync(join(project, '.claude'))).toEqual([]);
  });

  it('remembers that init --plugin enabled the plugin, until undone', () => {
    expect(pluginEnabledByInit(file)).toBe(false);
    notePluginEnabled(file, true);
    expect(pluginEnabledByInit(file)).toBe(true);
    notePluginEnabled(file, false);
    expect(pluginEnabledByInit(file)).toBe(false);
    expect(readdirSync(join(project, '.claude'))).toEqual([]);
  });

  it('a record that is not ours to read gives nothing back', () => {
    mkdirSync(join(project, '.claude', 'agent-session-backups'), { recursive: true });
    writeFileSync(join(project, '.claude', 'agent-session-backups', 'originals.json'), '{not json');
    expect(originalMatching(file, {})).toBeNull();
    expect(pluginEnabledByInit(file)).toBe(false);
  });
});
