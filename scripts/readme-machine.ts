// Rewrites docs/concepts.md's phase table and diagram from the XState definition (`npm run readme:machine`); the test
// tests/unit/core/views/machine-description.test.ts fails while they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeMachineSections, replaceSection } from '../tests/support/readme-machine';

const path = join(__dirname, '..', 'docs', 'concepts.md');
let text = readFileSync(path, 'utf8');
for (const [name, body] of Object.entries(readmeMachineSections())) text = replaceSection(text, name, body);
writeFileSync(path, text);
process.stdout.write('docs/concepts.md: machine table and diagram regenerated\n');
