// The real Claude Code drives agent-session as a newcomer installs it, nothing written by hand: through the plugin
// (`claude plugin marketplace add` + `install`) and through the npm package (`npm install -g` + `agent-session init`),
// against a scripted model: a sub-agent parks in approval (and is denied recording into another agent's session or
// chaining a command), a later run resumes it and it completes. Each install in the foreground and in the default
// background mode, with `claude -p` and interactively (in tmux, the prompt typed), on every Claude Code of
// AGENT_SESSION_HOST_CLAUDE (default: the pinned one and the npm registry's latest); then the background play
// AGENT_SESSION_HOST_RUNS times more (default 10) on the pinned one, because what breaks there is a race.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeVersions, findClaude, npmInstall, type Install } from './claude-host';
import { once, oncePer } from './once';
import { playScenario, type Mode, type Play, type Runner } from './scenario';

const runs = Number(process.env.AGENT_SESSION_HOST_RUNS ?? '10');
if (!Number.isInteger(runs) || runs < 0)
  throw new Error(
    `Expected AGENT_SESSION_HOST_RUNS to be a whole number of at least 0, got ${process.env.AGENT_SESSION_HOST_RUNS}`,
  );

const transcripts = mkdtempSync(join(tmpdir(), 'agent-session-host-transcripts-'));
const plays: Play[] = [];

/** The Claude Code of `which`, found (or installed) once; a failure fails every test that needs it. */
const claudeOf = oncePer(findClaude);

/** agent-session installed from npm as a newcomer installs it, once for every play that needs it. */
const npmBins = once(() => npmInstall(join(transcripts, 'npm')));

async function play(
  which: string,
  install: Install,
  mode: Mode,
  label: string,
  runner: Runner = 'print',
  interrupt = false,
): Promise<Play> {
  const claude = claudeOf(which);
  const result = await playScenario({
    claude,
    install,
    mode,
    runner,
    label,
    transcripts,
    interrupt,
    ...(install === 'npm' ? { npmBin: npmBins() } : {}),
  });
  plays.push(result);
  return result;
}

afterAll(() => {
  const groups = new Map<string, Play[]>();
  for (const p of plays) {
    const key = `Claude Code ${p.claude} ${p.runner}, ${p.install}, ${p.mode}${p.interrupted ? ', interrupted' : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const kinds = new Map<string, number>();
  for (const p of plays)
    for (const kind of new Set(p.problems.map((line) => line.split(':')[0]!)))
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  const summary = [
    'real-host:',
    ...[...groups].map(
      ([key, list]) => `  ${key}: ${list.filter((p) => p.problems.length === 0).length} of ${list.length} clean`,
    ),
    ...[...kinds].map(([kind, count]) => `  ${kind}: in ${count} plays`),
    `transcripts: ${transcripts}`,
  ].join('\n');
  writeFileSync(join(transcripts, 'summary.txt'), `${summary}\n`);
  process.stderr.write(`\n${summary}\n`); // stderr: `--json` without --outputFile owns stdout
});

const matrix = claudeVersions().flatMap((which) =>
  (['print', 'interactive'] as const).flatMap((runner) =>
    (['plugin', 'npm'] as const).flatMap((install) =>
      (['foreground', 'background'] as const).map((mode) => [which, runner, install, mode] as const),
    ),
  ),
);

it.each(matrix)(
  'Claude Code %s (%s), installed by %s, %s: parks in approval (other sessions refused), a second run resumes it, it completes',
  async (which, runner, install, mode) => {
    const result = await play(which, install, mode, `${which}-${runner}-${install}-${mode}`, runner);
    expect(result.problems).toEqual([]);
  },
);

// Issue 22: the API fails the resumed sub-agent once it works in executing (HTTP 400: Claude Code's StopFailure, no
// SubagentStop); the session waits, interrupted, and a third run carries it on to completed.
const interrupted = claudeVersions().flatMap((which) =>
  (['plugin', 'npm'] as const).flatMap((install) =>
    (['foreground', 'background'] as const).map((mode) => [which, install, mode] as const),
  ),
);

it.each(interrupted)(
  'Claude Code %s (print), installed by %s, %s: parks, a second run resumes it and dies of an API error in executing, a third run carries it on to completed',
  async (which, install, mode) => {
    const result = await play(which, install, mode, `${which}-print-${install}-${mode}-interrupted`, 'print', true);
    expect(result.problems).toEqual([]);
  },
);

const repeats = Array.from({ length: runs }, (_, i) => i + 1);
// AGENT_SESSION_HOST_RUNS=0 plays the matrix only (jest refuses an empty table).
if (repeats.length > 0)
  it.each(repeats)('background %i (pinned Claude Code, npm and init): parks, resumes, completes', async (n) => {
    const result = await play('pinned', 'npm', 'background', `background-${n}`);
    expect(result.problems).toEqual([]);
  });
