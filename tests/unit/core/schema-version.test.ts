import * as versions from '../../../src/core/schema-version';

it('NEWEST_SCHEMA_VERSION is the highest version declared (a new version moves it)', () => {
  const declared = Object.entries(versions)
    .filter(([name, value]) => name !== 'NEWEST_SCHEMA_VERSION' && typeof value === 'number')
    .map(([, value]) => value as number);
  expect(declared.length).toBeGreaterThan(5);
  expect(versions.NEWEST_SCHEMA_VERSION).toBe(Math.max(...declared));
});
