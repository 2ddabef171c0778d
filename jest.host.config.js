/**
 * `npm run test:host`: the real-host test (`tests/host/*.host.ts`). It runs the pinned `@anthropic-ai/claude-code`
 * (a dev dependency) against a scripted model server on 127.0.0.1; `AGENT_SESSION_HOST_RUNS` sets how many times the
 * background scenario is played (default 10). tests/host/sdk.host.ts runs the pinned @anthropic-ai/claude-agent-sdk
 * (a dev dependency) with the in-process hooks against the same server. One file at a time: each play spawns Claude
 * Code and its hooks.
 */
module.exports = {
  testEnvironment: 'node',
  globalSetup: '<rootDir>/tests/support/cache-dir.cjs',
  globalTeardown: '<rootDir>/tests/support/cache-dir-teardown.cjs',
  roots: ['<rootDir>/tests/host'],
  testMatch: ['**/*.host.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  maxWorkers: 1,
  testTimeout: 600000,
};
