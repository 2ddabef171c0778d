/**
 * Layering rules (`npm run layers`), written for the layout of issue 11 (ARCHITECTURE.md):
 *
 *   hooks/*.ts, tools/*.ts   entries: only wire an adapter (src/hooks, src/cli) to the process
 *   src/hooks/{seed,claude}  protocol adapters ─┐ never each other, never the CLI
 *   src/cli                  CLI adapter ───────┤→ src/service (use cases, the one assembly)
 *   src/service              → src/core, src/platform, the store interface; only the assembly opens a concrete store
 *   src/store                → src/core, src/platform, node:
 *   src/platform             → node: only (plus SessionError, a leaf value type)
 *   src/core                 → src/core, zod, xstate, date-fns; no node:, no I/O
 *
 * Folders that do not exist yet make their rules vacuous; the rules about today's folders apply already.
 * @type {import('dependency-cruiser').IConfiguration}
 */
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
      comment: 'src/core imports only src/core and zod, xstate, date-fns: no node: module, no other layer.',
      from: { path: '^src/core/' },
      to: { pathNot: ['^src/core/', '^node_modules/(zod|xstate|date-fns)/'] },
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
      comment: 'src/store builds on src/core and src/platform (and node:), never on the service or an adapter.',
      from: { path: '^src/store/' },
      to: { pathNot: ['^src/store/', '^src/core/', '^src/platform/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'service-uses-the-store-interface',
      severity: 'error',
      comment: 'The service sees only the SessionStore interface; the assembly module alone opens a concrete store.',
      from: { path: '^src/service/', pathNot: '^src/service/assembly\\.ts$' },
      to: { pathNot: ['^src/service/', '^src/core/', '^src/platform/', '^src/store/store\\.ts$'] },
    },
    {
      name: 'assembly-below-adapters',
      severity: 'error',
      comment: 'The assembly wires store, config and root; it imports no adapter.',
      from: { path: '^src/service/assembly\\.ts$' },
      to: { path: '^src/(hooks|cli)/' },
    },
    {
      name: 'adapters-use-the-service',
      severity: 'error',
      comment: 'The CLI and the hooks reach the store through src/service, never directly.',
      from: { path: '^src/(hooks|cli)/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'hooks-not-cli',
      severity: 'error',
      comment: 'The hooks and the CLI never import each other (shared helpers go to src/platform or src/service).',
      from: { path: '^src/hooks/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'cli-not-hooks',
      severity: 'error',
      comment: 'The hooks and the CLI never import each other (shared helpers go to src/platform or src/service).',
      from: { path: '^src/cli/' },
      to: { path: '^src/hooks/' },
    },
    {
      name: 'seed-not-claude',
      severity: 'error',
      comment: 'The two hook protocols never import each other; what both need is in src/hooks/ itself or below.',
      from: { path: '^src/hooks/seed/' },
      to: { path: '^src/hooks/claude/' },
    },
    {
      name: 'claude-not-seed',
      severity: 'error',
      comment: 'The two hook protocols never import each other; what both need is in src/hooks/ itself or below.',
      from: { path: '^src/hooks/claude/' },
      to: { path: '^src/hooks/seed/' },
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
