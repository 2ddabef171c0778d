// The real Claude Code (pinned in package.json) drives our hooks, wired by our own `init`, against a scripted model:
// a sub-agent parks in approval, a later `claude -p` resumes it and it completes; in the foreground, and in the
// default background mode repeated AGENT_SESSION_HOST_RUNS times (default 10), because what breaks there is a race.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findClaude } from './claude-host';
import { playScenario, type Mode, type Play } from './scenario';

const runs = Number(process.env.AGENT_SESSION_HOST_RUNS ?? '10');
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(
    `Expected AGENT_SESSION_HOST_RUNS to be a whole number of at least 1, got ${process.env.AGENT_SESSION_HOST_RUNS}`,
  );

// Found once, outside any test: when the pinned binary is missing every test below fails with this error.
let claude: string | Error;
try {
  const found = findClaude();
  claude = found.path;
} catch (error) {
  claude = error as Error;
}
const transcripts = mkdtempSync(join(tmpdir(), 'agent-session-host-transcripts-'));
const plays: Play[] = [];

async function play(mode: Mode, label: string): Promise<Play> {
  if (claude instanceof Error) throw claude;
  const result = await playScenario(claude, mode, label, transcripts);
  plays.push(result);
  return result;
}

afterAll(() => {
  const clean = (mode: Mode): string => {
    const mine = plays.filter((p) => p.mode === mode);
    return `${mine.filter((p) => p.problems.length === 0).length} of ${mine.length} ${mode} plays clean`;
  };
  const kinds = new Map<string, number>();
  for (const p of plays)
    for (const kind of new Set(p.problems.map((line) => line.split(':')[0]!)))
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  const summary = [
    `real-host: ${clean('foreground')}, ${clean('background')}`,
    ...[...kinds].map(([kind, count]) => `  ${kind}: in ${count} plays`),
    `transcripts: ${transcripts}`,
  ].join('\n');
  writeFileSync(join(transcripts, 'summary.txt'), `${summary}\n`);
  process.stderr.write(`\n${summary}\n`); // stderr: `--json` without --outputFile owns stdout
});

it('foreground: parks in approval, a second claude -p resumes it, it completes', async () => {
  const result = await play('foreground', 'foreground');
  expect(result.problems).toEqual([]);
});

it.each(Array.from({ length: runs }, (_, i) => i + 1))(
  'background %i: parks in approval, a second claude -p resumes it, it completes',
  async (n) => {
    const result = await play('background', `background-${n}`);
    expect(result.problems).toEqual([]);
  },
);
