// Runs a built bin the way its loader does, then writes the V8 code cache of what ran (see code-cache.mjs).
// Usage: node scripts/make-code-cache.cjs dist/<name>.cjs [args...]  (stdin goes to the bin)
'use strict';
const { readFileSync, writeFileSync, renameSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const bin = process.argv[2];
const text = readFileSync(bin, 'utf8');
const bundleFile = JSON.parse(/^const bundleFile = (".*");$/m.exec(text)[1]);
const cacheFile = JSON.parse(/^const cacheFile = (".*");$/m.exec(text)[1]);
const source = readFileSync(join(dirname(bin), bundleFile), 'latin1');
const script = new Script(source, { filename: bin });
process.argv = [process.argv[0], bin, ...process.argv.slice(3)];
const module_ = { exports: {}, filename: bin, id: bin };
process.on('exit', () => {
  const out = join(dirname(bin), cacheFile);
  writeFileSync(`${out}.tmp`, script.createCachedData());
  renameSync(`${out}.tmp`, out);
});
script.runInThisContext()(module_.exports, createRequire(bin), module_, bin, dirname(bin));
