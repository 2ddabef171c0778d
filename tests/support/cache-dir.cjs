// Jest globalSetup/globalTeardown: the bins' code caches (scripts/loader/) of a test run go into a private temp folder
// of that run, not the machine's ~/.cache/agent-session: the workers and every bin they spawn inherit the variable.
// A test that gives a bin an environment of its own (a temp HOME) gets that HOME's cache, or none.
// So do this user's agent-session data and config folders (XDG_DATA_HOME, XDG_CONFIG_HOME: `init` records the
// projects it wires there, src/app/wired-projects.ts): a test run never writes the developer's own.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async function setup() {
  if (!process.env.AGENT_SESSION_CACHE_DIR) {
    process.env.AGENT_SESSION_CACHE_DIR = mkdtempSync(join(tmpdir(), 'agent-session-test-cache-'));
    process.env.AGENT_SESSION_TEST_CACHE_DIR_MADE = '1';
  }
  const user = mkdtempSync(join(tmpdir(), 'agent-session-test-user-'));
  process.env.AGENT_SESSION_TEST_USER_DIR = user;
  process.env.XDG_DATA_HOME = join(user, 'data');
  process.env.XDG_CONFIG_HOME = join(user, 'config');
};

module.exports.teardown = async function teardown() {
  if (process.env.AGENT_SESSION_TEST_CACHE_DIR_MADE === '1')
    rmSync(process.env.AGENT_SESSION_CACHE_DIR, { recursive: true, force: true });
  if (process.env.AGENT_SESSION_TEST_USER_DIR)
    rmSync(process.env.AGENT_SESSION_TEST_USER_DIR, { recursive: true, force: true });
};
