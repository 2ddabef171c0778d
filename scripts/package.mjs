// `npm run package [-- DIR]`: the npm package as a tarball (agent-session-<version>.tgz in the current folder, or in
// DIR), packed from a staging folder so that its package.json carries no scripts: a shipped
// `prepare` (which builds from sources the package does not hold) makes npm 11 warn on every install, and nothing
// needs to run when the package is installed. Release with `npm publish <the tarball>`; `npm pack` and `npm publish`
// of the work tree are refused (prepack) so no package with our build scripts leaves by mistake.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

if (process.argv[2] === '--refuse-direct') {
  // The prepack of the work tree; packing the staging folder runs no script of ours.
  process.stderr.write(
    'Expected `npm run package` (a tarball without our build scripts), got `npm pack`/`npm publish` of the work tree\n',
  );
  process.exit(1);
}

// `--no-build`: dist/ was just built (the tests, after `npm test`'s build).
const build = !process.argv.includes('--no-build');
const destination = resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? '.');
if (build) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
delete manifest.scripts;
delete manifest.devDependencies;
const staging = mkdtempSync(join(tmpdir(), 'agent-session-package-'));
try {
  for (const file of [...manifest.files, 'README.md', 'LICENSE'])
    cpSync(file, join(staging, file), { recursive: true });
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const npm = process.env.npm_execpath;
  const [packed] = JSON.parse(
    execFileSync(
      npm ? process.execPath : 'npm',
      [...(npm ? [npm] : []), 'pack', staging, '--json', '--pack-destination', destination],
      {
        encoding: 'utf8',
      },
    ),
  );
  process.stdout.write(`${join(destination, packed.filename)}\n`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
