// scripts/bundles.mjs builtinsOnce: each bundle requires node:fs and node:path once, at its top (ESM: run by node).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** builtinsOnce(text) as scripts/bundles.mjs computes it: `{ out }`, or `{ error }` with the message it threw. */
function builtinsOnce(text: string): { out?: string; error?: string } {
  const script =
    "import('./scripts/bundles.mjs').then((m) => { try { process.stdout.write(JSON.stringify({ out: m.builtinsOnce(process.argv[1]) })); }" +
    ' catch (e) { process.stdout.write(JSON.stringify({ error: e.message })); } });';
  const result = spawnSync(process.execPath, ['-e', script, text], { cwd: ROOT, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { out?: string; error?: string };
}

describe('builtinsOnce', () => {
  it('requires each of node:fs and node:path once, after the strict-mode directive, and uses that everywhere', () => {
    const text =
      '"use strict";var a=require("node:fs"),b=require("node:path");function f(){let c=require("node:fs");return(0,c.readFileSync)}' +
      'var d=require("node:os");';
    expect(builtinsOnce(text).out).toBe(
      '"use strict";var __nodeFs=require("node:fs"),__nodePath=require("node:path");' +
        'var a=__nodeFs,b=__nodePath;function f(){let c=__nodeFs;return(0,c.readFileSync)}var d=require("node:os");',
    );
  });

  it.each([
    ['no strict-mode directive first', 'var a=require("node:fs");', 'use strict'],
    [
      'the text of a call inside a string',
      '"use strict";var a=require("node:fs"),m=\'require("node:fs")\';',
      'in text',
    ],
    ['a name it would declare already used', '"use strict";var __nodeFs=1;', '__nodeFs'],
  ])('refuses a bundle with %s', (_what, text, message) => {
    expect(builtinsOnce(text).error).toContain(message);
  });

  it('leaves a bundle without those requires as it is', () => {
    const text = '"use strict";var d=require("node:os");';
    expect(builtinsOnce(text).out).toBe(text);
  });

  it.each(['pre-delegate', 'subagent-stop', 'agent-session'])('was applied to the built %s bundle', (name) => {
    const bundle = readFileSync(join(ROOT, 'dist', `${name}.bundle`), 'latin1');
    expect(bundle.split('require("node:fs")')).toHaveLength(2);
    expect(bundle.split('require("node:path")')).toHaveLength(2);
    expect(bundle).toContain('{"use strict";var __nodeFs=require("node:fs"),__nodePath=require("node:path");');
  });
});
