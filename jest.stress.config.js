/**
 * `npm run test:stress`: the guarantee suite (concurrency, crashes, corrupt stores, hostile input, environment
 * faults). Its files end in `.stress.ts`, so the default `npm test` run (which matches `*.test.ts`) never
 * picks them up. Files run one at a time: they spawn many processes and the CI machine has 2 cores.
 */
module.exports = {
  testEnvironment: 'node',
  globalSetup: '<rootDir>/tests/support/cache-dir.cjs',
  globalTeardown: '<rootDir>/tests/support/cache-dir-teardown.cjs',
  roots: ['<rootDir>/tests/stress'],
  testMatch: ['**/*.stress.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  maxWorkers: 1,
  testTimeout: 240000,
};
