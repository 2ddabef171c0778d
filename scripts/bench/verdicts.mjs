// The bench's verdicts that read one run against another row or another run (docs/performance.md, "Targets"): every
// hook row on Node 22 and 24 within the lean hook + 0.10× (both × the minimal hook of the same Node), and each row's
// growth against the same machine's run before a change (`npm run bench -- --instructions --baseline FILE`): a hook
// row by at most 1 M instructions, a CLI row by at most 2 M. Pure functions over the figures scripts/bench.mjs
// measures and writes as JSON; `node scripts/bench/verdicts.mjs BEFORE.json AFTER.json` compares two runs written
// earlier without running anything.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** How far above the lean hook a hook row may be on Node 22 and 24, in × the minimal hook of the same Node. */
export const LEAN_MARGIN = 0.1;

/** The most a row may grow against the run before a change, in millions of instructions, by the kind of row. */
export const GROWTH_LIMITS = Object.freeze({ hook: 1, cli: 2 });

/**
 * The target of a hook row on a Node line of 22 or later: the lean hook's ratio to the minimal hook, plus LEAN_MARGIN.
 * @param lean the lean hook's figure on that Node
 * @param minimal the minimal hook's figure on that Node
 */
export function leanTarget(lean, minimal) {
  return lean / minimal + LEAN_MARGIN;
}

/**
 * What a row measures, from its name: `hook` (a pre-delegate or subagent-stop call, on any store or Node line), `cli`
 * (an `agent-session` command), `direct` (a hook connecting to PostgreSQL itself), or `reference` (`node -e ''`, the
 * reference hooks, the in-process SDK events). Only hooks and CLI calls are held to a growth limit: a direct hook's
 * count moves with the server's answers, which no 1 M limit can read (the build of 3a5819e: SubagentStop 194.5 M in
 * the bench run, 209.7–217.6 M in six runs of it afterwards).
 */
export function rowKind(name) {
  const call = name.replace(/^(?:Node v[\d.]+|PostgreSQL[^:]*): /, '');
  if (/^(?:pre-delegate|subagent-stop)\b/.test(call)) return name.startsWith('PostgreSQL direct: ') ? 'direct' : 'hook';
  if (call.startsWith('agent-session ')) return 'cli';
  return 'reference';
}

/**
 * A row's name as two runs share it: a Node line's full version becomes its major (`Node v22.23.3: x` → `Node 22: x`),
 * so a run made after the registry moved to the next patch of a line still meets its rows; the versions are compared
 * apart (see growth).
 */
export function rowKey(name) {
  return name.replace(/^Node v(\d+)\.[\d.]+: /, 'Node $1: ');
}

/**
 * Each row's change from the run `before` to the run `after` (the JSON scripts/bench.mjs writes with
 * `--instructions`), with its limit and verdict.
 * @returns `{ rows: [{ name, kind, before, after, delta, limit, met }], onlyBefore, onlyAfter, notes }`: `limit` and
 *   `met` are null for a reference row; `notes` names what differs between the two runs' machines and Node versions,
 *   which the limits assume equal
 */
export function growth(before, after) {
  const figures = (run, which) => {
    if (run?.instructions === undefined)
      throw new Error(`Expected the ${which} run to be an instruction count (\`npm run bench -- --instructions\`)`);
    return new Map(Object.entries(run.instructions).map(([name, s]) => [rowKey(name), { name, median: s.median }]));
  };
  const was = figures(before, 'earlier');
  const now = figures(after, 'later');
  const rows = [];
  for (const [key, { name, median }] of now) {
    const earlier = was.get(key);
    if (earlier === undefined) continue;
    const kind = rowKind(name);
    const delta = median - earlier.median;
    const limit = GROWTH_LIMITS[kind] ?? null;
    rows.push({
      name,
      kind,
      before: earlier.median,
      after: median,
      delta,
      limit,
      met: limit === null ? null : delta <= limit,
    });
  }
  const notes = [];
  for (const field of ['cpu', 'platform', 'node']) {
    const [a, b] = [before.machine?.[field], after.machine?.[field]];
    if (a !== b) notes.push(`machine ${field}: ${a ?? 'unknown'} before, ${b ?? 'unknown'} now`);
  }
  const versions = (run) => {
    const lines = new Map();
    for (const name of Object.keys(run.instructions)) {
      const match = /^Node v((\d+)\.[\d.]+): /.exec(name);
      if (match !== null) lines.set(match[2], match[1]);
    }
    return lines;
  };
  const [linesBefore, linesAfter] = [versions(before), versions(after)];
  for (const [major, version] of linesAfter) {
    const earlier = linesBefore.get(major);
    if (earlier !== undefined && earlier !== version)
      notes.push(`Node ${major}: v${earlier} before, v${version} now (Node's own change is in the deltas)`);
  }
  return {
    rows,
    onlyBefore: [...was].filter(([key]) => !now.has(key)).map(([, row]) => row.name),
    onlyAfter: [...now].filter(([key]) => !was.has(key)).map(([, row]) => row.name),
    notes,
  };
}

/** The comparison as text: a table of every shared row, then what either run lacks and what differs between them. */
export function growthReport(result, what) {
  const signed = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`;
  const lines = [
    table(
      [`growth against ${what}`, 'before M', 'now M', 'Δ M', 'limit', 'verdict'],
      result.rows.map((r) => [
        r.name,
        r.before.toFixed(1),
        r.after.toFixed(1),
        signed(r.delta),
        r.limit === null ? '' : `≤ +${r.limit} M`,
        r.met === null ? '' : r.met ? 'met' : 'NOT met',
      ]),
    ),
  ];
  const failed = result.rows.filter((r) => r.met === false).length;
  const held = result.rows.filter((r) => r.met !== null).length;
  lines.push(
    `${held - failed} of ${held} hook and CLI rows within their growth limit${failed ? `; ${failed} NOT` : ''}`,
  );
  if (result.rows.some((r) => r.kind === 'direct'))
    lines.push("PostgreSQL direct rows: no growth limit (their count moves with the server's answers, up to ~20 M)");
  if (result.onlyBefore.length > 0) lines.push(`Not in this run: ${result.onlyBefore.join('; ')}`);
  if (result.onlyAfter.length > 0) lines.push(`New in this run: ${result.onlyAfter.join('; ')}`);
  for (const note of result.notes) lines.push(`Differs: ${note}`);
  return lines.join('\n');
}

/** A Markdown table with padded columns. */
export function table(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r) => `| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/**
 * An earlier run's JSON, read for a comparison.
 * @throws Error naming the file and what was expected of it
 */
export function readRun(file) {
  let run;
  try {
    run = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Expected ${file} to be a bench run's JSON (bench-results/*.json): ${error.message}`);
  }
  if (typeof run?.instructions !== 'object' || run.instructions === null)
    throw new Error(`Expected ${file} to be an instruction count (\`npm run bench -- --instructions\`), with its rows`);
  return run;
}

// `node scripts/bench/verdicts.mjs BEFORE.json AFTER.json`: the growth of every row from one run to the other.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [beforeFile, afterFile] = process.argv.slice(2);
  if (beforeFile === undefined || afterFile === undefined) {
    process.stderr.write('Usage: node scripts/bench/verdicts.mjs BEFORE.json AFTER.json\n');
    process.exitCode = 2;
  } else {
    try {
      const before = readRun(beforeFile);
      const result = growth(before, readRun(afterFile));
      process.stdout.write(`${growthReport(result, beforeFile)}\n`);
    } catch (error) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    }
  }
}
