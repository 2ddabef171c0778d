// What `npm run test:node-lines` runs again on Node 22 and 24: the end-to-end files whose outcome can change with the
// Node that runs the bins, grouped by the Node part they lean on. The other e2e files test our own rules through the
// same bins and calls (a rule, a message, a table), which no Node line changes; they run once, on the pinned Node, in
// `npm test`. A file named here that no longer exists fails the unit test (tests/unit/scripts/node-line-suites.test.ts).

/** @type {Readonly<Record<string, readonly string[]>>} the e2e files run on every Node line, by what differs by Node */
export const E2E_ON_EVERY_LINE = {
  // The loader and its V8 code cache (a cache made by one Node is rejected by another), each bin's start, the library
  // entry (require and import), the packed tarball and the plugin as users install them.
  'start-up and loading': [
    'bins.test.ts',
    'bundle-start-up.test.ts',
    'cli-loads.test.ts',
    'library.test.ts',
    'package.test.ts',
    'plugin.test.ts',
    'hook-files.test.ts',
    'doctor.test.ts',
  ],
  // stdin, stdout and stderr of hooks and commands; fs error codes; a closed pipe; a removed working folder.
  'process and file system': [
    'hooks.test.ts',
    'cli.test.ts',
    'closed-pipe.test.ts',
    'out-file-faults.test.ts',
    'read-only-store.test.ts',
    'removed-cwd.test.ts',
    'no-content-in-errors.test.ts',
    'statusline.test.ts',
    'claude-code/scenario.test.ts',
    'codex/codex.test.ts',
    'opencode/init.test.ts',
  ],
  // Sockets, HTTP, child processes: the PostgreSQL driver, the page's server, notifications, the relay, the browser.
  'network and child processes': [
    'postgres.test.ts',
    'pg-driver-file.test.ts',
    'serve-browser.test.ts',
    'notify.test.ts',
    'relay-system.test.ts',
    'report-browser.test.ts',
  ],
  // Local dates and times as the CLI prints them: the time zone data comes with each Node's ICU.
  'local times': ['cli-daily.test.ts'],
};

/** The e2e files of E2E_ON_EVERY_LINE, as paths from the repository's root. */
export function e2eOnEveryLine() {
  return Object.values(E2E_ON_EVERY_LINE)
    .flat()
    .map((file) => `tests/e2e/${file}`);
}
