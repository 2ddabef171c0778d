// Writes the Claude Code plugin's code into plugin/dist/ (committed: `claude plugin install` copies the plugin folder
// as it is and runs no npm install): the same bin files as dist/ (scripts/bundles.mjs binFiles: loaders, bundles, the
// code-cache maker, the PostgreSQL driver), nothing of the building machine's Node in them; and its hooks,
// plugin/hooks/hooks.json, from the table of events (src/core/events.ts: the wiring `init` writes for Claude Code).
// `--check` builds in memory and compares with what is committed, exit 1 naming each file that differs
// (tests/e2e/plugin.test.ts runs it: the plugin never drifts from the source); `--out DIR` checks or writes another
// folder for the bins. Run `npm run build:plugin` after changing the source, and commit plugin/.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binFiles } from './bundles.mjs';
import { loadTs } from './generated.mjs';

const outAt = process.argv.indexOf('--out');
const OUT = outAt > 0 ? process.argv[outAt + 1] : 'plugin/dist';
const check = process.argv.includes('--check');
const HOOKS = 'plugin/hooks/hooks.json';

const files = await binFiles();
const hooks = await pluginHooks();
if (check) {
  if (readOrNull(HOOKS) !== hooks) {
    process.stderr.write(
      `Expected ${HOOKS} to be written from src/core/events.ts (run \`npm run build:plugin\` and commit it)\n`,
    );
    process.exitCode = 1;
  }
  const present = (() => {
    try {
      return readdirSync(OUT);
    } catch (error) {
      if (error.code === 'ENOENT') return [];
      throw error;
    }
  })();
  const differs = Object.entries(files)
    .filter(([file, { text }]) => !present.includes(file) || readFileSync(join(OUT, file), 'latin1') !== text)
    .map(([file]) => file);
  const extra = present.filter((file) => !(file in files));
  if (differs.length + extra.length > 0) {
    process.stderr.write(
      `Expected ${OUT}/ to be built from the current source; differs: ${[...differs, ...extra].join(', ')} ` +
        '(run `npm run build:plugin` and commit plugin/dist/)\n',
    );
    process.exitCode = 1;
  }
} else {
  writeFileSync(HOOKS, hooks);
  mkdirSync(OUT, { recursive: true });
  for (const file of readdirSync(OUT)) if (!(file in files)) rmSync(join(OUT, file));
  for (const [file, { text, mode }] of Object.entries(files)) {
    writeFileSync(join(OUT, file), text);
    chmodSync(join(OUT, file), mode);
  }
}

/**
 * The plugin's hooks/hooks.json: Claude Code's wiring (src/cli/init/settings.ts WIRINGS, the rows of
 * src/core/events.ts that name Claude Code), each bin run through the plugin root, with init's timeout.
 */
async function pluginHooks() {
  const { WIRINGS, HOOK_TIMEOUT_SECONDS } = await loadTs(
    "export { WIRINGS, HOOK_TIMEOUT_SECONDS } from './src/cli/init/settings';",
  );
  const hooks = {};
  for (const { event, matcher, bin } of WIRINGS) {
    // Through hooks/node.sh, which finds a node where a desktop-started Claude Code has none on PATH (or says so).
    const command = `sh "\${CLAUDE_PLUGIN_ROOT}/hooks/node.sh" "\${CLAUDE_PLUGIN_ROOT}/dist/${bin}.cjs"`;
    hooks[event] = [
      {
        ...(matcher === undefined ? {} : { matcher }),
        hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }],
      },
    ];
  }
  const description =
    "agent-session's hooks: the wiring `agent-session init` writes for Claude Code, generated from " +
    'src/core/events.ts by scripts/build-plugin.mjs (do not edit: `build-plugin.mjs --check` compares).';
  return `${JSON.stringify({ description, hooks }, null, 2)}\n`;
}

function readOrNull(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
}
