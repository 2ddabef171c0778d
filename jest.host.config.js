/**
 * `npm run test:host`: the real-host tests (`tests/host/*.host.ts`). They run the pinned `@anthropic-ai/claude-code`
 * (a dev dependency) against a scripted model server on 127.0.0.1, the pinned `@anthropic-ai/claude-agent-sdk` with the
 * in-process hooks against the same server (sdk.host.ts), and the pinned `@openai/codex` against a scripted Responses
 * API (codex.host.ts), and the pinned `opencode-ai` (and the registry's latest) against a scripted chat-completions API
 * with a probe plugin (opencode.host.ts) and with agent-session's own plugin installed from the npm tarball
 * (opencode-session.host.ts); `AGENT_SESSION_HOST_RUNS` sets how many times the background scenario is
 * played (default 10). One file at a time: each play spawns its host and our hooks.
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
