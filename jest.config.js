/**
 * Unit tests import the TypeScript sources through ts-jest (transpile only: `isolatedModules` is set in
 * tsconfig, and `tsc --noEmit` type-checks separately); e2e tests spawn the bundles in dist/, which
 * `npm test` rebuilds first. ts-jest and jest 29 are pure JavaScript: @swc/jest and jest 30 pull in
 * per-platform native packages that the registry mirror lacks, which breaks `npm ci`'s lockfile check.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 30000,
  // zod's exports map sends require('zod/v4/locales/en.js') to an ES module, which jest 29 cannot load;
  // its CommonJS twin is the same locale (esbuild and Node load the original fine).
  moduleNameMapper: { '^zod/v4/locales/en\\.js$': '<rootDir>/node_modules/zod/v4/locales/en.cjs' },
};
