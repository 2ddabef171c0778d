// The parsers the bins use instead of zod (src/**/*-parsers.ts) are generated from the zod schemas at build time
// (scripts/zod-codegen.ts): each file must be exactly what its schemas give, and each parser must accept exactly what
// zod accepts and return exactly what zod returns (the same values, the same key order), on valid, damaged and
// arbitrary inputs.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { ModuleKind, ScriptTarget, transpileModule } from 'typescript';
import * as z from 'zod/mini';
import { SCHEMA_MODULES } from '../../../scripts/parser-schemas';
import { renderParserModule, renderParsersOf } from '../../../scripts/zod-codegen';
import { parseConfigFileShape } from '../../../src/generated/config-parsers';
import { ConfigFileSchema } from '../../../src/core/config-schema';
import { parseSessionState } from '../../../src/generated/state-parsers';
import { SessionStateSchema } from '../../../src/core/state-schema';
import { parseBashInput, parsePayload, parseToolInput } from '../../../src/generated/claude-parsers';
import { BashInputSchema, PayloadSchema, ToolInputSchema } from '../../../src/hooks/handlers/claude-schema';
import { parsePreDelegateInput, parseSubagentStopInput } from '../../../src/generated/seed-parsers';
import { PreDelegateInputSchema, SubagentStopInputSchema } from '../../../src/hooks/seed/seed-schema';
import { generateSessions } from '../../support/generate-sessions';

const ROOT = join(__dirname, '..', '..', '..');

/** A value written out with its key order, undefined values and -0: two values agree only when this does. */
function exact(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function')
    return `${typeof value}:${String(value)}`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${Array.from(value, exact).join(',')}]`;
  const keys = Reflect.ownKeys(value).map((key) => (typeof key === 'symbol' ? key.toString() : JSON.stringify(key)));
  const values = Reflect.ownKeys(value).map((key) => exact((value as Record<PropertyKey, unknown>)[key]));
  return `{${keys.map((key, i) => `${key}:${values[i]}`).join(',')}}`;
}

const PAIRS = [
  ['parseSessionState', SessionStateSchema, parseSessionState],
  ['parseConfigFileShape', ConfigFileSchema, parseConfigFileShape],
  ['parsePreDelegateInput', PreDelegateInputSchema, parsePreDelegateInput],
  ['parseSubagentStopInput', SubagentStopInputSchema, parseSubagentStopInput],
  ['parsePayload', PayloadSchema, parsePayload],
  ['parseToolInput', ToolInputSchema, parseToolInput],
  ['parseBashInput', BashInputSchema, parseBashInput],
] as const;

/** The generated parser and zod agree on `input`: both refuse it, or both accept it and return the same value. */
function expectAgreement(schema: z.ZodMiniType, parse: (value: unknown) => unknown, input: unknown): void {
  const zod = schema.safeParse(input);
  const generated = parse(input);
  expect({ accepted: generated !== undefined, value: exact(generated) }).toEqual({
    accepted: zod.success,
    value: zod.success ? exact(zod.data) : 'undefined',
  });
}

// --- inputs: valid values of each schema, the same damaged at one place, and arbitrary values ---

const NOW = new Date('2026-11-24T12:00:00.000Z');
const STATES = generateSessions({ count: 150, now: NOW, seed: 7 }).map((state) => JSON.parse(JSON.stringify(state)));

const VALID: Readonly<Record<(typeof PAIRS)[number][0], readonly unknown[]>> = {
  parseSessionState: STATES,
  parseConfigFileShape: [
    {},
    { resume_timeout_minutes: 45, max_errors: 5, log_level: 'debug' },
    { $schema: 'x', cleanup_hours: 0, history_cap: 10, log_max_bytes: 1000, database_url: 'u', database_schema: 's' },
  ],
  parsePreDelegateInput: [{ agent_name: 'a' }, { agent_name: 'a', agent_id: 'agent-1' }, { agent_id: null, x: 1 }],
  parseSubagentStopInput: [
    { task_info: { agent_id: 'agent-1', agent_name: 'n', extra: [1] }, agent_output: { a: 1 }, exit_code: 1 },
    { agent_id: 'agent-1', exit_code: null, task_info: null },
  ],
  parsePayload: [
    { hook_event_name: 'PreToolUse', tool_name: 'Agent', tool_input: { subagent_type: 'x', prompt: 'p' } },
    { hook_event_name: 'PostToolUse', tool_response: { agentId: 'a1', status: 'done', content: [] }, cwd: '/p' },
    { hook_event_name: 'SubagentStop', agent_id: 7, agent_type: ['x'], last_assistant_message: null, extra: true },
  ],
  parseToolInput: [{ subagent_type: 'x' }, { subagent_type: 5, prompt: 'p' }, {}],
  parseBashInput: [{ command: 'ls', description: 'd' }, { command: 5 }, {}],
};

/** Values that test the edges of what zod accepts: types, formats, bounds, keys. */
const EDGE_VALUES: readonly unknown[] = [
  undefined,
  null,
  true,
  0,
  -0,
  1,
  2,
  -1,
  0.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.MAX_SAFE_INTEGER + 1,
  '',
  'x',
  '\ud83d\ude00',
  '\ud83d',
  'resume',
  'approval',
  'executing',
  'info',
  'agent-1',
  '-bad id',
  '2026-11-24T12:00:00.000Z',
  '2026-11-24T12:00:00+02:00',
  '2026-11-24T12:00:00',
  '2026-02-30T12:00:00Z',
  '2026-11-24 12:00:00Z',
  [],
  [{}],
  {},
  { a: 1 },
  Object.create(null),
  new Date(0),
];

/** A path into a JSON value (object keys and array indexes). */
type Path = readonly (string | number)[];

function paths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [prefix];
  const children = Array.isArray(value)
    ? value.flatMap((item, i) => paths(item, [...prefix, i]))
    : Object.keys(value).flatMap((key) => paths((value as Record<string, unknown>)[key], [...prefix, key]));
  return [prefix, ...children];
}

/** A deep copy of `value` with `change` applied at `path` (a copy: the valid inputs stay as they are). */
function changedAt(value: unknown, path: Path, change: (at: unknown) => unknown): unknown {
  if (path.length === 0) return change(value);
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  const next = changedAt(copy[head!], rest, change);
  if (next === DELETE) delete copy[head!];
  else copy[head!] = next;
  return copy;
}

const DELETE = Symbol('delete');

/** One damage at one place: removed, replaced by an edge value or an arbitrary one, or given an extra key. */
const damage = (valid: readonly unknown[]) =>
  fc
    .record({
      base: fc.constantFrom(...valid),
      pick: fc.nat(),
      kind: fc.constantFrom('delete', 'edge', 'arbitrary', 'extra-key', 'proto-key'),
      edge: fc.constantFrom(...EDGE_VALUES),
      arbitrary: fc.jsonValue(),
      key: fc.constantFrom('x', 'phase', 'agent_id', 'toString', 'constructor', 'timestamp'),
    })
    .map(({ base, pick, kind, edge, arbitrary, key }) => {
      const all = paths(base);
      const path = all[pick % all.length]!;
      return changedAt(base, path, (at) => {
        if (kind === 'delete') return path.length === 0 ? undefined : DELETE;
        if (kind === 'edge') return edge;
        if (kind === 'arbitrary') return arbitrary;
        if (at === null || typeof at !== 'object' || Array.isArray(at)) return at;
        if (kind === 'extra-key') return { ...at, [key]: edge };
        // JSON.parse makes `__proto__` an own key (plain data), as a hostile file would.
        const rest = JSON.stringify(at).slice(1);
        return JSON.parse(`{"__proto__":{"polluted":1}${rest === '}' ? '' : ','}${rest}`);
      });
    });

describe('the generated parsers', () => {
  it('are exactly what their zod schemas give (npm run build regenerates them)', () => {
    const result = spawnSync(process.execPath, ['scripts/parsers.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('cover every schema module the build lists', () => {
    const declared = Object.values(SCHEMA_MODULES).flatMap((parsers) => Object.keys(parsers));
    expect(declared.sort()).toEqual(PAIRS.map(([name]) => name).sort());
  });

  it.each(PAIRS)('%s accepts every valid input as zod does, with the same result', (name, schema, parse) => {
    for (const input of VALID[name]) {
      expect(schema.safeParse(input).success).toBe(true);
      expectAgreement(schema, parse, input);
    }
  });

  it.each(PAIRS)('%s agrees with zod on inputs damaged at one place', (name, schema, parse) => {
    fc.assert(
      fc.property(damage(VALID[name]), (input) => expectAgreement(schema, parse, input)),
      { numRuns: 1500, seed: 14 },
    );
  });

  it.each(PAIRS)('%s agrees with zod on arbitrary values', (_name, schema, parse) => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), fc.constantFrom(...EDGE_VALUES)), (input) =>
        expectAgreement(schema, parse, input),
      ),
      { numRuns: 500, seed: 14 },
    );
  });

  it('refuses what zod refuses in a valid state, and a damaged one is damaged somewhere (the inputs are honest)', () => {
    // The damage above must often be refused, or the agreement would only ever be tested on valid inputs.
    const samples = fc.sample(damage(STATES), { numRuns: 500, seed: 14 });
    const refused = samples.filter((input) => !SessionStateSchema.safeParse(input).success).length;
    expect(refused).toBeGreaterThan(150);
    expect(refused).toBeLessThan(500);
  });
});

describe('the generator', () => {
  const render = (schema: z.ZodMiniType) =>
    renderParserModule({ source: 'x.ts', imports: [], targets: [{ name: 'parseX', schema, type: 'X', doc: 'X.' }] });

  it.each([
    [
      'a transform',
      z.strictObject({
        a: z.pipe(
          z.string(),
          z.transform((s) => s.length),
        ),
      }),
    ],
    ['a refinement', z.strictObject({ a: z.string().check(z.refine((s) => s !== 'x')) })],
    ['an e-mail format', z.strictObject({ a: z.email() })],
    ['a default', z.strictObject({ a: z._default(z.string(), 'x') })],
    ['a coercion', z.strictObject({ a: z.coerce.number() })],
    ['a maximum length', z.strictObject({ a: z.string().check(z.maxLength(3)) })],
    ['a top level that is not an object', z.string()],
  ] as const)('refuses, at build time, a schema with %s rather than guess its rules', (_what, schema) => {
    expect(() => render(schema as z.ZodMiniType)).toThrow(/Expected/);
  });

  it('writes a schema module: a type-only import of its types, one exported function per parser', () => {
    const text = renderParsersOf('src/core/state-schema.ts', SCHEMA_MODULES['src/core/state-schema.ts']!);
    expect(text).toContain("import type { SessionState } from '../core/state-schema';");
    expect(text).toContain('export function parseSessionState(value: unknown): SessionState | undefined {');
    expect(text).not.toMatch(/from 'zod/);
  });
});

describe("the generated check of the schemas' ISO date-times (isIsoDateTime, no RegExp)", () => {
  const timestamp = () => z.iso.datetime({ offset: true });
  /** zod's own pattern for the schemas' timestamps: the specification the generated check must meet. */
  const PATTERN = (timestamp() as unknown as { _zod: { def: { pattern: RegExp } } })._zod.def.pattern;
  const render = (schema: z.ZodMiniType) =>
    renderParserModule({
      source: 'x.ts',
      imports: [],
      targets: [{ name: 'parseX', schema: z.strictObject({ at: schema }), type: 'X', doc: 'X.' }],
    });
  const text = render(timestamp());
  /** The generated module, run: the exact text the build writes into state-parsers.ts for a timestamp. */
  const parseX = (() => {
    const js = transpileModule(text, {
      compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 },
    }).outputText;
    const module = { exports: {} as { parseX?: (value: unknown) => unknown } };
    new Function('module', 'exports', js)(module, module.exports);
    return module.exports.parseX!;
  })();
  const accepts = (s: string) => parseX({ at: s }) !== undefined;
  const agrees = (s: string) => expect({ s, accepted: accepts(s) }).toEqual({ s, accepted: PATTERN.test(s) });

  const two = (n: number) => String(n).padStart(2, '0');
  /** Characters a damaged timestamp may hold: ASCII digits and separators, letters, non-ASCII digits, a pair. */
  const CHARS = [...'0123456789', ...'-:T.Z+ tz/_,', 'a', 'é', '\n', '\u0000', '\u0663', '\uff10', '\u{1d7d8}'];
  const char = fc.constantFrom(...CHARS);

  /** Valid timestamps: every instant of years 0000-9999 as toISOString writes it. */
  const iso = fc
    .date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true })
    .map((date) => date.toISOString());
  /** A number in min..max mostly, else one of `outside` (just outside the range). */
  const part = (min: number, max: number, ...outside: number[]) =>
    fc.oneof(
      { arbitrary: fc.integer({ min, max }), weight: 12 },
      { arbitrary: fc.constantFrom(min, max, ...outside), weight: 2 },
    );
  /** Timestamps built part by part, each part in range, at its ends or just outside them. */
  const built = fc
    .record({
      year: fc.oneof(part(0, 9999), fc.constantFrom(0, 4, 100, 400, 1900, 2000, 2024, 2100)),
      month: part(1, 12, 0, 13),
      day: part(1, 31, 0, 28, 29, 30, 32),
      hour: part(0, 23, 24, 25),
      minute: part(0, 59, 60, 61),
      second: part(0, 59, 60, 61),
      fraction: fc.option(fc.stringMatching(/^[0-9]{0,12}$/), { freq: 3 }),
      zone: fc.oneof(
        fc.constantFrom('Z', 'z', '', '+00:00', '-00:00', '+2359', '+02', 'Z+01:00', '+01:00Z'),
        fc
          .record({ sign: fc.constantFrom('+', '-'), h: part(0, 23, 24), m: part(0, 59, 60) })
          .map(({ sign, h, m }) => `${sign}${two(h)}:${two(m)}`),
      ),
    })
    .map(
      ({ year, month, day, hour, minute, second, fraction, zone }) =>
        `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}` +
        `${fraction === null ? '' : `.${fraction}`}${zone}`,
    );
  /** A valid or built timestamp with one to three characters replaced, removed or inserted. */
  const mutated = fc
    .record({
      base: fc.oneof(iso, built),
      edits: fc.array(fc.record({ kind: fc.constantFrom('replace', 'delete', 'insert'), at: fc.nat(), c: char }), {
        minLength: 1,
        maxLength: 3,
      }),
    })
    .map(({ base, edits }) =>
      edits.reduce((s, { kind, at, c }) => {
        const i = at % (s.length + 1);
        if (kind === 'insert') return s.slice(0, i) + c + s.slice(i);
        return s.slice(0, i) + (kind === 'replace' ? c : '') + s.slice(i + 1);
      }, base),
    );

  it('is what the build writes for z.iso.datetime({ offset: true }), and other date-times keep their RegExp', () => {
    expect(text).toContain('if (!isIsoDateTime(v)) return FAIL;');
    expect(text).not.toContain('new RegExp');
    const other = render(z.iso.datetime({ offset: true, precision: 3 }));
    expect(other).toContain('new RegExp(');
    expect(other).not.toContain('isIsoDateTime');
  });

  it('agrees with the pattern on leap days, month ends, offsets and fractions', () => {
    const years = [
      '0000',
      '0004',
      '0100',
      '0400',
      '1600',
      '1700',
      '1900',
      '1996',
      '2000',
      '2023',
      '2024',
      '2100',
      '2400',
      '9996',
      '9999',
    ];
    for (const year of years)
      for (let month = 0; month <= 13; month++)
        for (const day of ['00', '01', '28', '29', '30', '31', '32'])
          for (const rest of ['T00:00:00Z', 'T23:59:59.5+23:59', 'T12:00:00-00:00'])
            agrees(`${year}-${two(month)}-${day}${rest}`);
    for (const year of ['1900', '2000', '2024', '2100', '0000', '0400']) {
      expect(accepts(`${year}-02-29T00:00:00Z`)).toBe(['2000', '2024', '0000', '0400'].includes(year));
      expect(accepts(`${year}-02-30T00:00:00Z`)).toBe(false);
    }
    for (const time of ['24:00:00', '23:60:00', '23:59:60', '2:00:00', '12:0:00']) agrees(`2024-01-01T${time}Z`);
    for (const fraction of ['', '.', '.0', '.1234567', '.000000000001', '..1', '.1.2', '.a', '.\u0663'])
      agrees(`2024-01-01T00:00:00${fraction}Z`);
    for (const zone of ['Z', 'z', '', '+00:00', '-23:59', '+24:00', '-00:60', '+0100', '+01', '+01:00:00', 'Z\n', ' Z'])
      agrees(`2024-01-01T00:00:00.5${zone}`);
  });

  it('agrees with the pattern on valid timestamps', () => {
    fc.assert(
      fc.property(iso, (s) => expect(accepts(s)).toBe(true)),
      { numRuns: 2000, seed: 24 },
    );
  });

  it('agrees with the pattern on timestamps built part by part, in range or just outside', () => {
    fc.assert(fc.property(built, agrees), { numRuns: 5000, seed: 24 });
  });

  it('agrees with the pattern on timestamps with characters replaced, removed or inserted', () => {
    fc.assert(fc.property(mutated, agrees), { numRuns: 5000, seed: 24 });
  });

  it('agrees with the pattern on arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: char, minLength: 18, maxLength: 32 })),
        agrees,
      ),
      { numRuns: 3000, seed: 24 },
    );
  });

  it('is tested on inputs the pattern both accepts and refuses often (the inputs are honest)', () => {
    // Most damage breaks a timestamp; a digit for a digit often does not.
    for (const [arbitrary, least] of [
      [built, 200],
      [mutated, 25],
    ] as const) {
      const samples = fc.sample(arbitrary, { numRuns: 1000, seed: 24 });
      const accepted = samples.filter((s) => PATTERN.test(s)).length;
      expect(accepted).toBeGreaterThan(least);
      expect(accepted).toBeLessThan(1000 - least);
    }
  });
});
