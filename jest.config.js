/** Unit tests import sources through @swc/jest; e2e tests spawn the bundles in dist/ (built by `npm test`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', {}] },
  testTimeout: 30000,
};
