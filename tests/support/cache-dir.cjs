// Jest globalSetup/globalTeardown: the bins' code caches (scripts/loader/) of a test run go into a private temp folder
// of that run, not the machine's ~/.cache/agent-session: the workers and every bin they spawn inherit the variable.
// A test that gives a bin an environment of its own (a temp HOME) gets that HOME's cache, or none.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async function setup() {
  if (process.env.AGENT_SESSION_CACHE_DIR) return;
  process.env.AGENT_SESSION_CACHE_DIR = mkdtempSync(join(tmpdir(), 'agent-session-test-cache-'));
  process.env.AGENT_SESSION_TEST_CACHE_DIR_MADE = '1';
};

module.exports.teardown = async function teardown() {
  if (process.env.AGENT_SESSION_TEST_CACHE_DIR_MADE === '1')
    rmSync(process.env.AGENT_SESSION_CACHE_DIR, { recursive: true, force: true });
};
