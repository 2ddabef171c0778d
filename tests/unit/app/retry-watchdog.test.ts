// Issue 42 item 4: whether Claude Code's unattended retry is on, as `cleanup` (a cron line, none of Claude Code's
// environment) can tell: its own environment, then the `env` of Claude Code's settings, project and user.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { retryWatchdogOn } from '../../../src/app/retry-watchdog';

let base: string;
let project: string;
let home: string;
let root: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-session-watchdog-'));
  project = join(base, 'project');
  home = join(base, 'home');
  root = join(project, '.claude', 'session');
  mkdirSync(root, { recursive: true });
  mkdirSync(join(home, '.claude'), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const settings = (file: string, value: unknown): void => writeFileSync(file, JSON.stringify(value));

describe('retryWatchdogOn', () => {
  it.each([
    ['1', true],
    ['true', true],
    ['YES', true],
    [' on ', true],
    ['0', false],
    ['false', false],
    ['', false],
    ['2', false],
  ])('CLAUDE_CODE_RETRY_WATCHDOG=%j in the environment: %s', (value, on) => {
    expect(retryWatchdogOn({ HOME: home, CLAUDE_CODE_RETRY_WATCHDOG: value }, root, undefined)).toBe(on);
  });

  it('nothing set anywhere: off', () => {
    expect(retryWatchdogOn({ HOME: home }, root, undefined)).toBe(false);
  });

  it.each([
    ['the project’s settings.local.json', () => join(project, '.claude', 'settings.local.json')],
    ['the project’s settings.json', () => join(project, '.claude', 'settings.json')],
    ['the user’s settings.json', () => join(home, '.claude', 'settings.json')],
  ])('on in the env of %s: on', (_where, file) => {
    settings(file(), { env: { CLAUDE_CODE_RETRY_WATCHDOG: '1' } });
    expect(retryWatchdogOn({ HOME: home }, root, undefined)).toBe(true);
  });

  it('CLAUDE_CONFIG_DIR names the user’s settings folder instead of ~/.claude', () => {
    const config = join(base, 'config');
    mkdirSync(config);
    settings(join(config, 'settings.json'), { env: { CLAUDE_CODE_RETRY_WATCHDOG: 'true' } });
    expect(retryWatchdogOn({ HOME: home, CLAUDE_CONFIG_DIR: config }, root, undefined)).toBe(true);
    expect(retryWatchdogOn({ HOME: home }, root, undefined)).toBe(false);
  });

  it.each([
    ['off in the settings', { env: { CLAUDE_CODE_RETRY_WATCHDOG: '0' } }],
    ['a number, not a text', { env: { CLAUDE_CODE_RETRY_WATCHDOG: 1 } }],
    ['env not an object', { env: ['CLAUDE_CODE_RETRY_WATCHDOG=1'] }],
    ['another variable', { env: { CLAUDE_CODE_RETRY_WATCHDOG_MAX_WAIT_MS: '1' } }],
  ])('%s: off', (_what, value) => {
    settings(join(project, '.claude', 'settings.json'), value);
    expect(retryWatchdogOn({ HOME: home }, root, undefined)).toBe(false);
  });

  it('a settings file that is not JSON says nothing (no throw)', () => {
    writeFileSync(join(project, '.claude', 'settings.json'), '{ "env": ');
    expect(retryWatchdogOn({ HOME: home }, root, undefined)).toBe(false);
  });
});
