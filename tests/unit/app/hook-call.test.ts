import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf } from '../../helpers';
import { DEFAULT_CONFIG } from '../../../src/core/config';
import { openHookCall } from '../../../src/app/hook-call';

let project: string;
let root: string;
const URL = 'postgres://agents:s3cret@127.0.0.1:5432/test';

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'hook-config-'));
  root = join(project, '.claude', 'session');
  mkdirSync(join(project, '.claude'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const writeConfig = (text: string) => writeFileSync(join(project, '.claude', 'agent-session.json'), text);

describe('openHookCall', () => {
  it('resolves the root, the settings and the log folder once, the store on first use', async () => {
    const call = openHookCall({}, project);
    expect(call.root).toBe(root);
    expect(call.logDir).toBe(join(project, '.claude', 'logs'));
    expect(call.warning).toBeNull();
    expect(call.sessions()).toBe(call.sessions());
    await call.close();
  });

  it('falls back to the defaults (the file store) for an invalid config that names no database', async () => {
    writeConfig('{"max_errors": "three"}');
    const call = openHookCall({}, project);
    expect(call.config).toEqual(DEFAULT_CONFIG);
    expect(call.warning).toMatch(/max_errors/);
    expect(call.sessions().limits.maxErrors).toBe(DEFAULT_CONFIG.max_errors);
    await call.close();
  });

  // The defaults select the file store: a team on PostgreSQL would miss its parked sessions and write new ones on
  // this disk only. The hook fails open instead (its caller logs the reason).
  it.each([
    ['a config file naming a database and a bad key', {}, `{"database_url": "${URL}", "max_errors": "three"}`],
    ['a config file naming a database that is not JSON', {}, `{"database_url": "${URL}",}`],
    ['a malformed database URL in the variable', { AGENT_SESSION_DATABASE_URL: 'postgres://a:b@[x/db' }, null],
    ['a valid URL in the variable and a bad config file', { AGENT_SESSION_DATABASE_URL: URL }, '{"max_errors": 0}'],
  ])('refuses to fall back to the file store with %s', (_name, env, file) => {
    if (file !== null) writeConfig(file);
    const call = openHookCall(env, project);
    // The root and the log folder are known (the failure is logged there); no store is opened.
    expect(call.root).toBe(root);
    expect(codeOf(() => call.sessions())).toBe('E_USAGE');
  });
});
