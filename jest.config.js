/**
 * Unit tests import the TypeScript sources through ts-jest (transpile only: `isolatedModules` is set in
 * tsconfig, and `tsc --noEmit` type-checks separately); e2e tests spawn the bundles in dist/, which
 * `npm test` rebuilds first. ts-jest and jest 29 are pure JavaScript: @swc/jest and jest 30 pull in
 * per-platform native packages that the registry mirror lacks, which breaks `npm ci`'s lockfile check.
 */
module.exports = {
  testEnvironment: 'node',
  globalSetup: '<rootDir>/tests/support/cache-dir.cjs',
  globalTeardown: '<rootDir>/tests/support/cache-dir-teardown.cjs',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // `zod/v4/locales/en.js` is the ESM file under every condition; jest's CommonJS runtime needs its `.cjs` twin.
  moduleNameMapper: { '^zod/v4/locales/(.*)\\.js$': 'zod/v4/locales/$1.cjs' },
  testTimeout: 30000,
};
