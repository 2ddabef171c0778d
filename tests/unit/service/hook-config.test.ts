import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf } from '../../helpers';
import { DEFAULT_CONFIG } from '../../../src/core/config';
import { hookConfig } from '../../../src/app/hook-config';

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

describe('hookConfig', () => {
  it('falls back to the defaults (the file store) for an invalid config that names no database', () => {
    writeConfig('{"max_errors": "three"}');
    const loaded = hookConfig({}, project, root);
    expect(loaded.config).toEqual(DEFAULT_CONFIG);
    expect(loaded.warning).toMatch(/max_errors/);
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
    expect(codeOf(() => hookConfig(env, project, root))).toBe('E_USAGE');
  });
});
