/**
 * Layering rules (`npm run layers`), written for the layout of issue 11 (ARCHITECTURE.md):
 *
 *   hooks/*.ts, tools/*.ts   entries: only wire an adapter (src/hooks, src/cli) to the process
 *   src/hooks/seed           the seed protocol ─┐ never the host events' handlers or adapters, never the CLI
 *   src/hooks/{hosts,handlers} host adapters → event handlers (never back), → src/core/events.ts (the table)
 *   src/cli                  CLI adapter ───────┤→ src/app (the composition root), src/service (use cases)
 *   src/app                  the composition root: → src/service, src/store, src/core, src/platform, node:
 *   src/service              → src/core, src/platform, node:path; the SessionStore interface lives here
 *                            (store.ts)
 *   src/store                → src/core, src/platform, node:, src/service/store.ts (the interface it implements)
 *   src/platform             → node: only (plus SessionError, a leaf value type)
 *   src/core                 → src/core, zod, xstate, date-fns; no node:, no I/O; its rules never import its
 *                            presenters (src/core/views)
 *
 * Folders that do not exist yet make their rules vacuous; the rules about today's folders apply already.
 * @type {import('dependency-cruiser').IConfiguration}
 */
/** Two rules: neither `src/<a>/` nor `src/<b>/` imports the other. */
function neverEachOther(a, b, comment) {
  const rule = (from, to) => ({
    name: `${from.replace('/', '-')}-not-${to.replace('/', '-')}`,
    severity: 'error',
    comment,
    from: { path: `^src/${from}/` },
    to: { path: `^src/${to}/` },
  });
  return [rule(a, b), rule(b, a)];
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle means two modules are one; split out what both need.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'src/core imports only src/core and zod, xstate, date-fns (with @date-fns/utc): no node: module, no other layer.',
      from: { path: '^src/core/' },
      to: {
        pathNot: [
          '^src/core/',
          '^src/generated/(phase-table|state-parsers|config-parsers)\\.ts$',
          '^node_modules/(zod|xstate|date-fns|@date-fns/utc)/',
        ],
      },
    },
    {
      name: 'core-rules-not-views',
      severity: 'error',
      comment:
        "core's rules never import its presenters (src/core/views: report, stats, timeline, explain, inbox, the " +
        "machine's description): views read the rules' results, never the other way round.",
      from: { path: '^src/core/', pathNot: '^src/core/views/' },
      to: { path: '^src/core/views/' },
    },
    {
      name: 'platform-only-node',
      severity: 'error',
      comment:
        'src/platform holds Node helpers with no domain knowledge: node: modules only (SessionError is allowed).',
      from: { path: '^src/platform/' },
      to: { pathNot: ['^src/platform/', '^src/core/errors\\.ts$'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'store-below-service',
      severity: 'error',
      comment:
        'src/store builds on src/core, src/platform and node:, and implements the interface in src/service/store.ts.',
      from: { path: '^src/store/' },
      to: {
        // The PostgreSQL store's driver (issue 12) is the one package a backend may use; only src/store/postgres/.
        pathNot: ['^src/store/', '^src/core/', '^src/platform/', '^src/service/store\\.ts$', '^node_modules/postgres/'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'postgres-driver-only-in-its-store',
      severity: 'error',
      comment:
        'The PostgreSQL driver is loaded only by src/store/postgres/ (and lazily: the file-store path never loads it).',
      from: { path: '^src/', pathNot: '^src/store/postgres/' },
      to: { path: '^node_modules/postgres/' },
    },
    {
      name: 'service-uses-the-store-interface',
      severity: 'error',
      comment:
        'The service (the use cases) sees only the SessionStore interface (src/service/store.ts), the core and the ' +
        'platform helpers, and no node: module but path: src/app alone opens a concrete store and reads files.',
      from: { path: '^src/service/' },
      to: { pathNot: ['^src/service/', '^src/core/', '^src/generated/', '^src/platform/', '^path$'] },
    },
    {
      name: 'only-the-app-opens-stores',
      severity: 'error',
      comment: 'src/app, the one composition root, is the only place above the stores that imports one.',
      from: { path: '^src/', pathNot: ['^src/app/', '^src/store/', '^src/index\\.ts$'] },
      to: { path: '^src/store/' },
    },
    {
      name: 'app-below-adapters',
      severity: 'error',
      comment: 'The composition root wires stores, settings and the service; it imports no adapter.',
      from: { path: '^src/app/' },
      to: { path: '^src/(hooks|cli)/' },
    },
    {
      name: 'adapters-use-the-service',
      severity: 'error',
      comment: 'The CLI and the hooks reach the store through src/service, never directly.',
      from: { path: '^src/(hooks|cli)/' },
      to: { path: '^src/store/' },
    },
    ...neverEachOther(
      'hooks',
      'cli',
      'The hooks and the CLI never import each other (shared helpers go to src/platform or src/service).',
    ),
    ...neverEachOther(
      'hooks/seed',
      'hooks/handlers',
      'The two hook protocols never import each other; what both need is in src/hooks/ or below.',
    ),
    ...neverEachOther(
      'hooks/seed',
      'hooks/hosts',
      'The two hook protocols never import each other; what both need is in src/hooks/ or below.',
    ),
    {
      name: 'handlers-not-hosts',
      severity: 'error',
      comment:
        "An event's handler knows no host: the host's adapter (src/hooks/hosts/) reads its payload as Claude Code's " +
        'and gives its words; handlers never import an adapter.',
      from: { path: '^src/hooks/handlers/' },
      to: { path: '^src/hooks/hosts/' },
    },
    {
      name: 'runners-apart',
      severity: 'error',
      comment:
        'The process runner (src/hooks/run.ts) and the Agent SDK host (in-process) share the one answer ' +
        '(src/hooks/answer.ts): no handler or host imports the process runner.',
      from: { path: '^src/hooks/(handlers|hosts)/' },
      to: { path: '^src/hooks/run\\.ts$' },
    },
    {
      name: 'events-are-data',
      severity: 'error',
      comment:
        'The table of events (src/core/events.ts) is data the CLI, the hooks and the build derive from: it imports ' +
        'only core/host.ts.',
      from: { path: '^src/core/events\\.ts$' },
      to: { pathNot: '^src/core/host\\.ts$' },
    },
    {
      name: 'generated-apart',
      severity: 'error',
      comment:
        'src/generated/ holds what the build writes from the schemas and the machine: each file imports only the ' +
        'types of its source module.',
      from: { path: '^src/generated/' },
      to: { pathNot: ['^src/core/', '^src/hooks/(handlers/claude|seed/seed)-schema\\.ts$'] },
    },
    {
      name: 'fs-only-where-io-lives',
      severity: 'error',
      comment:
        'node:fs is imported only by src/platform and src/store, and by the named files whose job is I/O: the config ' +
        "file (app/call.ts), the user's record of wired projects (app/wired-projects.ts) and of trusted files " +
        '(app/trust.ts), export files and init ' +
        "(cli/transfer-file.ts, cli/init/, cli/commands/init.ts), and the hooks' own process I/O (hooks/process-io.ts, " +
        'log.ts, self-test.ts, plugin-yield.ts: the settings files it reads). Everything else goes through them.',
      from: {
        path: '^src/',
        pathNot: [
          '^src/(platform|store)/',
          '^src/app/(call|wired-projects|trust)\\.ts$',
          '^src/cli/transfer-file\\.ts$',
          '^src/cli/init/',
          '^src/cli/commands/init\\.ts$',
          '^src/hooks/(process-io|log|self-test|plugin-yield)\\.ts$',
        ],
      },
      to: { dependencyTypes: ['core'], path: '^(node:)?fs(/promises)?$' },
    },
    {
      name: 'entries-only-wire',
      severity: 'error',
      comment: 'hooks/*.ts and tools/*.ts only wire an adapter to the process: no core, store, platform or service.',
      from: { path: '^(hooks|tools)/[^/]+\\.ts$' },
      to: { path: '^src/(core|store|platform|service)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // `node:fs` and `fs` are both the core module fs.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['require', 'node', 'default'] },
  },
};
