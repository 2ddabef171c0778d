// `npm run package [-- DIR]`: the npm package as a tarball (agent-session-<version>.tgz in the current folder, or in
// DIR): the committed, prebuilt plugin/ folder packed as it is (scripts/build-plugin.mjs writes it: the bins, the
// library and its types, a manifest with no dependency and no script), the very files a user installs with
// `npm install -g ~/agent-session/plugin`. Release with `npm publish <the tarball>`; `npm pack` and `npm publish` of the
// work tree are refused (prepack): its package.json is the developers' (build scripts, dev dependencies).
// Without `--no-build`, plugin/ is rebuilt from the source first (commit what changed).
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

if (process.argv[2] === '--refuse-direct') {
  // The prepack of the work tree; packing plugin/ runs no script of ours.
  process.stderr.write(
    'Expected `npm run package` (the prebuilt plugin/ folder, without our build scripts), got `npm pack`/`npm publish` of the work tree\n',
  );
  process.exit(1);
}

const build = !process.argv.includes('--no-build');
const destination = resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? '.');
if (build) execFileSync(process.execPath, ['scripts/build-plugin.mjs'], { stdio: 'inherit' });
const npm = process.env.npm_execpath;
const [packed] = JSON.parse(
  execFileSync(
    npm ? process.execPath : 'npm',
    [...(npm ? [npm] : []), 'pack', resolve('plugin'), '--json', '--pack-destination', destination],
    { encoding: 'utf8' },
  ),
);
process.stdout.write(`${join(destination, packed.filename)}\n`);
