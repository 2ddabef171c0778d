// Guarantee: fail-open hooks and refused hostile arguments. fast-check drives 10,000 inputs into each hook
// in-process (runHook with injected stdin, env and write), then a sample of 200 through the built bins; the
// CLI gets traversal, NUL, unicode and 10,000-character ids, non-object metadata and non-numeric hours.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { runCli } from '../../src/cli/main';
import { newSession } from '../../src/core/session';
import { runHook, type HookSpec } from '../../src/hooks/run';
import { preDelegateHook, subagentStopHook } from '../../src/hooks/specs';
import { Sessions } from '../../src/service/sessions';
import { FileStore, serialize } from '../../src/store/file-store';
import { BIN, STACK_LINE, makeTemp, removeTemp, runBin, seedOf, snapshot } from './helpers';

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const FIELD_KEYS = ['agent_name', 'agent_id', 'task_id', 'task_info', 'agent_output', 'exit_code', ...PROTO_KEYS];
const IDS = [
  'live',
  'final',
  'missing',
  '',
  '.',
  '..',
  '../live',
  '/etc',
  'a/b',
  'live\u0000',
  'agént',
  'x'.repeat(10_000),
  '-x',
];

/** JSON text of an object whose keys may repeat and may be `__proto__` (JSON.stringify of an object could not say so). */
const objectText = (entries: ReadonlyArray<readonly [string, string]>): string =>
  `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;

const jsonValueText = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null');
const idText = fc
  .oneof(fc.constantFrom(...IDS), fc.string({ unit: 'binary', maxLength: 40 }))
  .map((id) => JSON.stringify(id));
const fieldValue = fc.oneof(
  jsonValueText,
  idText,
  fc.constantFrom('null', 'true', '0', '1', '-1', '1e309', '[]', '{}', '"0"'),
);
const protoObject = fc
  .array(
    fc.tuple(
      fc.constantFrom(...FIELD_KEYS),
      fc.oneof(fieldValue, fc.constant('{"polluted":"yes"}'), fc.constant('{"prototype":{"polluted":"yes"}}')),
    ),
    { maxLength: 8 },
  )
  .map(objectText);
const taskInfo = fc
  .tuple(idText, fc.constantFrom('', ',"__proto__":{"polluted":"yes"}'))
  .map(([id, extra]) => `{"agent_id":${id}${extra}}`);
const plausible = fc
  .record(
    {
      agent_name: fc.oneof(fc.constantFrom('"agent"', '"other"', 'null', '1', '[]'), jsonValueText),
      agent_id: idText,
      task_info: taskInfo,
      exit_code: fc.constantFrom('0', '1', '-1', '"0"', 'null', '1.5', '1e309'),
      agent_output: fc.oneof(jsonValueText, fc.constant(JSON.stringify('out '.repeat(2000)))),
    },
    { requiredKeys: [] },
  )
  .map((record) => objectText(Object.entries(record)));
const deep = fc
  .tuple(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom('array', 'object', 'name', 'output', 'unbalanced'))
  .map(([depth, kind]) => {
    const nested = '['.repeat(depth) + ']'.repeat(depth);
    if (kind === 'array') return nested;
    if (kind === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    if (kind === 'name') return `{"agent_name":${nested},"agent_id":"live"}`;
    if (kind === 'output') return `{"task_info":{"agent_id":"missing"},"agent_output":${nested}}`;
    return '['.repeat(depth);
  });
const huge = fc
  .tuple(
    fc.constantFrom(100_000, 1_000_000, 9 * 1024 * 1024),
    fc.constantFrom('agent_name', 'agent_id', 'agent_output', 'junk'),
  )
  .map(([size, key]) => `{"task_info":{"agent_id":"missing"},${JSON.stringify(key)}:"${'h'.repeat(size)}"}`);

/** One stdin input as bytes. */
const input: fc.Arbitrary<Buffer> = fc.oneof(
  { arbitrary: fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((text) => Buffer.from(text)), weight: 2 },
  { arbitrary: jsonValueText.map((text) => Buffer.from(text)), weight: 2 },
  { arbitrary: protoObject.map((text) => Buffer.from(text)), weight: 3 },
  { arbitrary: plausible.map((text) => Buffer.from(text)), weight: 4 },
  { arbitrary: deep.map((text) => Buffer.from(text)), weight: 1 },
  { arbitrary: huge.map((text) => Buffer.from(text)), weight: 1 },
);

/** Splits bytes into 1-4 chunks, as a pipe might deliver them. */
function chunks(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => Math.floor(cut * bytes.length)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces.filter((piece) => piece.length > 0);
}

/** The hook's printed answer: nothing, or one line holding one JSON object, and never a stack trace. */
function checkOutput(printed: string): Record<string, unknown> | null {
  expect(printed).not.toMatch(STACK_LINE);
  if (printed === '') return null;
  expect(printed.endsWith('\n')).toBe(true);
  expect(printed.slice(0, -1)).not.toContain('\n');
  const answer = JSON.parse(printed) as unknown;
  expect(typeof answer === 'object' && answer !== null && !Array.isArray(answer)).toBe(true);
  return answer as Record<string, unknown>;
}

function expectNoPollution(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

let dir: string;
let store: string;
beforeEach(async () => {
  dir = makeTemp();
  store = join(dir, 'store');
  const fileStore = new FileStore(store);
  const now = new Date();
  await fileStore.create({
    ...newSession({ agent_id: 'live', agent_name: 'agent', purpose: 'p' }, now),
    phase: 'approval',
    resume_ready: true,
  });
  const final = newSession({ agent_id: 'final', agent_name: 'agent', purpose: 'p' }, now);
  await fileStore.create({ ...final, phase: 'completed', finalized_at: final.created_at, duration_seconds: 0 });
});
afterEach(() => removeTemp(dir));

/** The store's files but the per-agent pointer index (`.agents`): a cache that any lookup may refresh. */
function sessionsSnapshot(dir: string): Map<string, string> {
  return new Map([...snapshot(dir)].filter(([rel]) => rel !== '.agents' && !rel.startsWith('.agents/')));
}

/** Restores the store files from a snapshot taken with `snapshot` (after a legitimate finalize). */
function restore(files: Map<string, string>): void {
  for (const [rel, content] of files) {
    if (rel === '' || content === 'dir') continue;
    writeFileSync(join(store, rel), Buffer.from(content, 'base64'));
  }
}

describe('hostile hook input', () => {
  const hooks: ReadonlyArray<readonly [string, HookSpec<object>]> = [
    ['pre-delegate', preDelegateHook as HookSpec<object>],
    ['subagent-stop', subagentStopHook as HookSpec<object>],
  ];

  it.each(hooks)(
    '%s: 10,000 fuzzed stdin inputs in-process: one JSON object or nothing, no stack, no state change, no pollution',
    async (name, spec) => {
      const before = sessionsSnapshot(store);
      const env = {
        AGENT_SESSION_DIR: store,
        AGENT_SESSION_LOG_DIR: join(dir, 'logs'),
        AGENT_SESSION_STDIN_TIMEOUT_MS: '2000',
      };
      const counts = new Map<string, number>();
      let legitimateChanges = 0;
      await fc.assert(
        fc.asyncProperty(
          input,
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
          async (bytes, cuts) => {
            let printed = '';
            await runHook(spec, {
              stdin: Readable.from(chunks(bytes, cuts)),
              write: (text) => (printed += text),
              env,
              cwd: dir,
            });
            const answer = checkOutput(printed);
            const reason = String(answer?.reason ?? (answer?.finalized === true ? 'finalized' : 'none'));
            counts.set(reason, (counts.get(reason) ?? 0) + 1);
            expectNoPollution();
            if (answer?.finalized === true || answer?.should_resume === true) {
              // A valid stop of the live session, or an approved resume of it (recorded in its history), is the one
              // legitimate change; check it is exactly that, then undo it for the next input.
              expect(answer.agent_id).toBe('live');
              if (answer.should_resume === true) {
                const history = JSON.parse(readFileSync(join(store, 'live', 'state.json'), 'utf8')).history;
                expect(history).toEqual([
                  expect.objectContaining({ from_phase: 'approval', to_phase: 'approval', event: 'resume' }),
                ]);
              }
              legitimateChanges++;
              restore(before);
            }
            expect(sessionsSnapshot(store)).toEqual(before);
          },
        ),
        { numRuns: 10_000, seed: seedOf(`fuzz ${name}`) },
      );
      process.stdout.write(
        `[stress] fuzz ${name}: 10000 inputs, answers ${JSON.stringify(Object.fromEntries(counts))}, ${legitimateChanges} legitimate changes (finalizations or recorded resumes, undone)\n`,
      );
    },
  );

  it('200 fuzzed inputs through the built bins: exit 0, at most one JSON object, no stack trace, no state change', () => {
    const samples = fc.sample(
      input.filter((bytes) => bytes.length < 2_000_000),
      { numRuns: 200, seed: seedOf('fuzz bins') },
    );
    const before = sessionsSnapshot(store);
    samples.forEach((bytes, i) => {
      const bin = i % 2 === 0 ? BIN.preDelegate : BIN.subagentStop;
      const result = runBin(bin, [], {
        dir,
        input: bytes,
        env: { AGENT_SESSION_DIR: store, AGENT_SESSION_STDIN_TIMEOUT_MS: '2000' },
      });
      expect({ status: result.status, signal: result.signal }).toEqual({ status: 0, signal: null });
      expect(result.stderr).not.toMatch(STACK_LINE);
      const answer = checkOutput(result.stdout);
      // A stop of the live session, or an approved resume of it (recorded in its history), is legitimate: undo it.
      if (answer?.finalized === true || answer?.should_resume === true) restore(before);
      expect(sessionsSnapshot(store)).toEqual(before);
    });
  });
});

describe('hostile store content reaching a hook', () => {
  it('a resumable session whose metadata is nested 100,000 deep: pre-delegate still exits 0 with one JSON answer', () => {
    const raw = serialize({
      ...newSession({ agent_id: 'deep', agent_name: 'agent', purpose: 'p' }, new Date()),
      phase: 'approval',
      resume_ready: true,
    });
    const depth = 100_000;
    mkdirSync(join(store, 'deep'));
    writeFileSync(
      join(store, 'deep', 'state.json'),
      raw.replace('"metadata": {}', `"metadata": {"deep": ${'['.repeat(depth)}${']'.repeat(depth)}}`),
    );
    const result = runBin(BIN.preDelegate, [], {
      dir,
      input: '{"agent_id":"deep"}',
      env: { AGENT_SESSION_DIR: store },
    });
    expect({ status: result.status, signal: result.signal }).toEqual({ status: 0, signal: null });
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(checkOutput(result.stdout)).toMatchObject({ should_resume: false });
  });
});

describe('prototype pollution through metadata', () => {
  it('metadata with __proto__ / constructor keys pollutes nothing (in-process and through the CLI)', async () => {
    const sessions = new Sessions({ store: new FileStore(store) });
    const metadata = JSON.parse(
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"ok":1}',
    ) as Record<string, unknown>;
    await sessions.create({ agent_name: 'agent', purpose: 'p', id: 'proto', metadata });
    await sessions.update('proto', {
      metadata: JSON.parse('{"__proto__":{"polluted":"again"},"toString":"x"}') as Record<string, unknown>,
    });
    const state = await sessions.get('proto');
    expectNoPollution();
    expect(Object.getPrototypeOf(state.metadata)).toBe(Object.prototype);
    expect(state.metadata.ok).toBe(1);
    expect(typeof state.metadata.toString).toBe('string');
    const cli = runBin(
      BIN.cli,
      ['update', 'proto', '--metadata', '{"__proto__":{"polluted":"cli"}}', '--json', '--dir', store],
      { dir },
    );
    expect(cli.status).toBe(0);
    expect(() => JSON.parse(cli.stdout) as unknown).not.toThrow();
  });
});

describe('hostile CLI arguments', () => {
  const BAD_IDS = [
    '../x',
    '../../etc/passwd',
    '/etc',
    'a/b',
    '..',
    '.',
    '',
    'agént',
    '日本語',
    '🙂',
    'x'.repeat(10_000),
    '-x',
    ' a',
    'a b',
    'a\\b',
    'x'.repeat(129),
  ];
  const BAD_METADATA = ['[]', '"s"', '1', 'null', 'true', '{', '', '[{"a":1}]', '{"a":1} x'];
  const BAD_HOURS = ['abc', '-1', '-0.5', 'NaN', 'Infinity', '-Infinity', '', '1e999', ' '];

  /** Runs the CLI in-process (argv cannot carry NUL), returning the exit code. */
  async function cli(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(
      args,
      {
        out: (t) => (out += t),
        err: (t) => (err += t),
        env: { AGENT_SESSION_DIR: store },
        cwd: dir,
        now: () => new Date(),
        negative: false,
      },
      '0.0.0',
    );
    return { code, out, err };
  }

  function commandsFor(id: string): string[][] {
    return [
      ['create', '--agent', 'a', '--purpose', 'p', '--id', id],
      ['update', id, '--phase', 'planning'],
      ['get', id],
      ['should-resume', id],
      ['finalize', id, 'completed'],
      ['delete', id],
    ];
  }

  it('ids with traversal, NUL, unicode or 10,000 characters are refused (exit 2) in-process, nothing written', async () => {
    const before = snapshot(dir);
    let tried = 0;
    for (const id of [...BAD_IDS, 'a\u0000b', 'live\u0000', '\u0000']) {
      for (const args of commandsFor(id)) {
        const { code, err } = await cli(args);
        expect([2, 4]).toContain(code);
        expect(err.trimEnd().split('\n')).toHaveLength(1);
        tried++;
      }
    }
    expect(snapshot(dir)).toEqual(before);
    process.stdout.write(`[stress] hostile ids in-process: ${tried} commands refused\n`);
  });

  it('the same ids through the built bin: exit 2 or 4, one line, nothing written', () => {
    const before = snapshot(dir);
    let tried = 0;
    for (const id of BAD_IDS) {
      for (const args of commandsFor(id)) {
        const result = runBin(BIN.cli, [...args, '--dir', store], { dir });
        expect([2, 4]).toContain(result.status);
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(result.stderr).not.toMatch(STACK_LINE);
        tried++;
      }
    }
    expect(snapshot(dir)).toEqual(before);
    process.stdout.write(`[stress] hostile ids through the bin: ${tried} commands refused\n`);
  });

  it('metadata that is not a JSON object and hours that are not a number of hours: exit 2, nothing written', () => {
    const before = snapshot(dir);
    let tried = 0;
    for (const metadata of BAD_METADATA) {
      for (const args of [
        ['create', '--agent', 'a', '--purpose', 'p', '--metadata', metadata],
        ['update', 'live', '--metadata', metadata],
      ]) {
        const result = runBin(BIN.cli, [...args, '--dir', store], { dir });
        expect(result.status).toBe(2);
        tried++;
      }
    }
    for (const hours of BAD_HOURS) {
      for (const args of [
        ['cleanup', '--hours', hours],
        [`--hours=${hours}`, 'cleanup'],
        ['cleanup', '--dry-run', `--hours=${hours}`],
      ]) {
        const result = runBin(BIN.cli, [...args, '--dir', store], { dir });
        expect([2, 4]).toContain(result.status);
        tried++;
      }
    }
    expect(snapshot(dir)).toEqual(before);
    process.stdout.write(`[stress] bad metadata / hours through the bin: ${tried} commands refused\n`);
  });

  it('nothing is created for a refused command on a store that does not exist yet', () => {
    const empty = join(dir, 'nowhere');
    mkdirSync(empty);
    for (const args of [
      ['create', '--agent', 'a', '--purpose', 'p', '--id', '../x'],
      ['create', '--agent', 'a', '--purpose', 'p', '--metadata', '[]'],
      ['cleanup', '--hours', 'abc'],
    ]) {
      expect(runBin(BIN.cli, [...args, '--dir', join(empty, 'store')], { dir }).status).toBe(2);
    }
    expect(snapshot(empty)).toEqual(new Map([['', 'dir']]));
  });
});
