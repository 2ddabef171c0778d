// Preloaded (`node --require`) into a built bin by tests/e2e/hook-code-budget.test.ts: counts the bytes of code the
// process loads. A bin's loader compiles its bundle with `vm.Script` (scripts/loader/loader-body.cjs), so each
// script compiled is counted with its source's length; each file required from disk (the loader itself, the
// PostgreSQL driver's file, a bundle split per event) is counted with its size. Node's own modules are not ours and not
// counted. Written at exit, as JSON, to the file CODE_BYTES_OUT names (stdout is the hook's answer).
'use strict';
const fs = require('node:fs');
const vm = require('node:vm');

const compiled = [];
const Script = vm.Script;
vm.Script = class CountedScript extends Script {
  constructor(code, options) {
    super(code, options);
    const filename = typeof options === 'string' ? options : options?.filename;
    compiled.push({ what: `compiled ${filename ?? 'a script'}`, bytes: Buffer.byteLength(String(code)) });
  }
};

process.on('exit', () => {
  const required = Object.keys(require.cache)
    .filter((file) => file !== __filename)
    .map((file) => ({ what: `required ${file}`, bytes: fs.statSync(file).size }));
  fs.writeFileSync(process.env.CODE_BYTES_OUT, JSON.stringify([...compiled, ...required]));
});
