// The seed protocol's answers as docs/seed-protocol.md documents them, against what the built bins print: every case
// of each hook, each field printed is documented (nested ones too), each field documented as always there is printed,
// and each reason is one the docs name (the resume reasons: docs/concepts.md "Resume rules"). Issue 20:
// subagent-stop's `agent_id` was not documented.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BIN, projectMaker, run, tempDir } from '../helpers';

const DOCS = resolve(__dirname, '..', '..', 'docs');
const SEED_PROTOCOL = readFileSync(resolve(DOCS, 'seed-protocol.md'), 'utf8');
const CONCEPTS = readFileSync(resolve(DOCS, 'concepts.md'), 'utf8');
const base = tempDir();
const project = projectMaker(base);

/** A documented field: whether it may be absent, the value it always has (`finalized: true`), its own fields. */
interface Field {
  readonly optional: boolean;
  readonly literal?: boolean;
  readonly fields?: Shape;
}
type Shape = ReadonlyMap<string, Field>;

/** Reads the docs' notation of an answer: `{a, b?, c?: {x, y}, finalized: true}`. */
export function parseShape(text: string): Shape {
  let at = 0;
  const skip = () => {
    while (/\s/.test(text[at] ?? '')) at++;
  };
  const expect_ = (char: string) => {
    skip();
    if (text[at] !== char) throw new Error(`Docs shape: expected ${char} at ${at} of ${text}`);
    at++;
  };
  const object = (): Shape => {
    expect_('{');
    const shape = new Map<string, Field>();
    for (;;) {
      skip();
      const name = /^[a-z_]+/.exec(text.slice(at))?.[0];
      if (name === undefined) throw new Error(`Docs shape: expected a field name at ${at} of ${text}`);
      at += name.length;
      const optional = text[at] === '?';
      if (optional) at++;
      skip();
      let field: Field = { optional };
      if (text[at] === ':') {
        at++;
        skip();
        if (text[at] === '{') field = { optional, fields: object() };
        else {
          const literal = /^(true|false)/.exec(text.slice(at))?.[0];
          if (literal === undefined) throw new Error(`Docs shape: expected a value at ${at} of ${text}`);
          at += literal.length;
          field = { optional, literal: literal === 'true' };
        }
      }
      shape.set(name, field);
      skip();
      if (text[at] === ',') {
        at++;
        continue;
      }
      expect_('}');
      return shape;
    }
  };
  const shape = object();
  skip();
  if (at !== text.length) throw new Error(`Docs shape: text after the object in ${text}`);
  return shape;
}

/** Where `value` departs from `shape` (`resume_metadata.decision: not documented`), or nothing. */
function departures(value: Record<string, unknown>, shape: Shape, path = ''): string[] {
  const found: string[] = [];
  for (const [name, inner] of Object.entries(value)) {
    const field = shape.get(name);
    if (field === undefined) found.push(`${path}${name}: printed, not documented`);
    else if (field.literal !== undefined && inner !== field.literal) found.push(`${path}${name}: not ${field.literal}`);
    else if (field.fields !== undefined)
      found.push(...departures(inner as Record<string, unknown>, field.fields, `${path}${name}.`));
  }
  for (const [name, field] of shape)
    if (!field.optional && !(name in value)) found.push(`${path}${name}: documented, not printed`);
  return found;
}

/** Every field of a shape, nested ones as `resume_metadata.decision`. */
function fieldsOf(shape: Shape, path = ''): string[] {
  return [...shape].flatMap(([name, field]) => [
    `${path}${name}`,
    ...(field.fields === undefined ? [] : fieldsOf(field.fields, `${path}${name}.`)),
  ]);
}

/** The fields of `value` that `shape` documents, nested ones as fieldsOf names them. */
function printedFields(value: Record<string, unknown>, shape: Shape, path = ''): string[] {
  return Object.entries(value).flatMap(([name, inner]) => {
    const nested = shape.get(name)?.fields;
    return [
      `${path}${name}`,
      ...(nested === undefined ? [] : printedFields(inner as Record<string, unknown>, nested, `${path}${name}.`)),
    ];
  });
}

/** The seed protocol page's paragraph on one hook: from its bold name to the next blank line. */
function paragraph(hook: string): string {
  const start = SEED_PROTOCOL.indexOf(`**\`${hook}\`**`);
  expect(start).toBeGreaterThan(-1);
  return SEED_PROTOCOL.slice(start, SEED_PROTOCOL.indexOf('\n\n', start));
}

const codes = (text: string): string[] => [...text.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!);

const PRE_DELEGATE = (() => {
  const text = paragraph('pre-delegate');
  const shape = /Answer:\s*`(\{[^`]*\})`/.exec(text)?.[1];
  const reasons = /where `reason` is one of (.*?)\. /s.exec(text)?.[1];
  // The resume reasons are the table under docs/concepts.md "Resume rules".
  const table = CONCEPTS.slice(
    CONCEPTS.indexOf('## Resume rules'),
    CONCEPTS.indexOf('## An approval is picked up once'),
  );
  const resumeReasons = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]!);
  return { shape: parseShape(shape!), reasons: new Set([...codes(reasons!), ...resumeReasons]) };
})();

const SUBAGENT_STOP = (() => {
  const text = paragraph('subagent-stop');
  const match = /Answer\s+`(\{[^`]*\})`\s+or\s+`(\{[^`]*\})`/.exec(text);
  const reasons = /with reason (.*?)\./s.exec(text.slice(match!.index))?.[1];
  return { shapes: [parseShape(match![1]!), parseShape(match![2]!)], reasons: new Set(codes(reasons!)) };
})();

/** A store of no project's folder holding a session an older version wrote (no project: unassigned). */
const LEGACY = join(base, 'legacy-store');

/**
 * One project: a session in approval (id `s1`), one approved and waiting for pickup (`s2`), a corrupt one (`bad`), a
 * large one (`big`), one whose agent was interrupted in executing (`s3`, agent `deployer`) and one of another project
 * (`theirs`); and LEGACY.
 */
function store(): string {
  const cwd = project();
  const cli = (args: string[], env: Record<string, string> = {}) =>
    expect(run(BIN.cli, args, { cwd, env }).status).toBe(0);
  cli(['create', '--agent', 'architect', '--purpose', 'p', '--id', 'theirs'], { AGENT_SESSION_PROJECT: 'acme/other' });
  cli(['update', 'theirs', '--phase', 'approval'], { AGENT_SESSION_PROJECT: 'acme/other' });
  mkdirSync(join(LEGACY, 'older'), { recursive: true });
  const at = new Date().toISOString();
  writeFileSync(
    join(LEGACY, 'older', 'state.json'),
    JSON.stringify({
      schema_version: 1,
      agent_id: 'older',
      agent_name: 'architect',
      purpose: 'p',
      created_at: at,
      last_updated: at,
      phase: 'planning',
      metadata: {},
      resume_ready: true,
      history: [{ from_phase: 'initializing', to_phase: 'planning', timestamp: at }],
      error_count: 0,
      last_error: null,
    }),
  );
  cli(['create', '--agent', 'architect', '--purpose', 'p', '--id', 's1', '--metadata', '{"task":"T1"}']);
  cli(['update', 's1', '--phase', 'approval']);
  cli(['create', '--agent', 'migrator', '--purpose', 'p', '--id', 's2']);
  cli(['update', 's2', '--phase', 'approval']);
  cli(['approve', 's2', '--by', 'bob']);
  cli(['create', '--agent', 'reviewer', '--purpose', 'p', '--id', 'bad']);
  writeFileSync(join(cwd, '.claude', 'session', 'bad', 'state.json'), '{"truncated');
  cli(['create', '--agent', 'writer', '--purpose', 'p', '--id', 'big']);
  cli([
    'update',
    'big',
    '--phase',
    'planning',
    '--metadata',
    JSON.stringify({ a: 'x'.repeat(40_000), b: 'y'.repeat(40_000) }),
  ]);
  cli(['create', '--agent', 'deployer', '--purpose', 'p', '--id', 's3']);
  cli(['update', 's3', '--phase', 'executing']);
  const interrupted = { agent_id: 's3', interrupted: { error: 'rate_limit', message: 'usage limit reached' } };
  expect(
    run(BIN.subagentStop, [], { cwd, input: JSON.stringify(interrupted), env: { CLAUDE_PROJECT_DIR: cwd } }),
  ).toMatchObject({ status: 0 });
  return cwd;
}

/** The hook's one answer line, parsed. */
function answer(bin: string, cwd: string, input: string, env: Record<string, string> = {}): Record<string, unknown> {
  const result = run(bin, [], { cwd, input, env: { CLAUDE_PROJECT_DIR: cwd, ...env } });
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
}

describe('docs/seed-protocol.md documents the seed answers the bins print', () => {
  it('reads a shape in the docs notation', () => {
    const shape = parseShape('{a, b?: true, c?: {x, y?}}');
    expect(departures({ a: 1, b: true, c: { x: 1 } }, shape)).toEqual([]);
    expect(departures({ b: false, c: { y: 1 }, d: 1 }, shape)).toEqual([
      'b: not true',
      'c.x: documented, not printed',
      'd: printed, not documented',
      'a: documented, not printed',
    ]);
  });

  const preDelegateCases: [string, string, Record<string, string>?][] = [
    ['resumable, by id', '{"agent_name": "architect", "agent_id": "s1"}'],
    ['resumable, by name, with the decision', '{"agent_name": "migrator"}'],
    ['resumable, cut to the answer limit', '{"agent_id": "big"}'],
    ['interrupted, carried on', '{"agent_name": "deployer"}'],
    ['not resumable', '{"agent_id": "s1"}'],
    ['another agent’s session', '{"agent_name": "other", "agent_id": "s2"}'],
    ['another project’s session', '{"agent_name": "architect", "agent_id": "theirs"}'],
    ['a session of no project', '{"agent_id": "older"}', { AGENT_SESSION_DIR: LEGACY }],
    ['no session of that agent', '{"agent_name": "nobody"}'],
    ['a corrupt session', '{"agent_id": "bad"}'],
    ['a missing session', '{"agent_id": "missing"}'],
    ['invalid input', '[1, 2]'],
    ['an invalid id', '{"agent_id": "../x"}'],
    ['not JSON', '{"agent_'],
    ['a store that cannot be read', '{"agent_name": "architect"}', { AGENT_SESSION_DIR: '/dev/null/store' }],
  ];

  it('pre-delegate', () => {
    const cwd = store();
    const seen = preDelegateCases.map(([label, input, env]) => {
      const printed = answer(BIN.preDelegate, cwd, input, env);
      return {
        label,
        reason: printed.reason,
        departures: departures(printed, PRE_DELEGATE.shape),
        fields: printedFields(printed, PRE_DELEGATE.shape),
      };
    });
    for (const { label, reason, departures: found } of seen) {
      expect({ label, found }).toEqual({ label, found: [] });
      expect({ label, reason, documented: PRE_DELEGATE.reasons.has(String(reason)) }).toEqual({
        label,
        reason,
        documented: true,
      });
    }
    // The cases reach every documented field, the optional ones included: each is printed somewhere.
    expect(new Set(seen.flatMap((entry) => entry.fields))).toEqual(new Set(fieldsOf(PRE_DELEGATE.shape)));
  });

  const subagentStopCases: [string, string, Record<string, string>?][] = [
    ['finalized', '{"task_info": {"agent_id": "s1"}, "agent_output": "done"}'],
    ['failed', '{"agent_id": "s2", "exit_code": 1}'],
    ['already final', '{"agent_id": "s1"}'],
    ['another agent’s session', '{"agent_id": "big", "agent_name": "other"}'],
    ['another project’s session', '{"agent_id": "theirs"}'],
    ['a session of no project', '{"agent_id": "older"}', { AGENT_SESSION_DIR: LEGACY }],
    ['a missing session', '{"agent_id": "missing"}'],
    ['a corrupt session', '{"agent_id": "bad"}'],
    ['no id', '{"agent_output": "x"}'],
    ['invalid input', '"text"'],
    ['not JSON', '{"agent_'],
    ['a store that cannot be read', '{"agent_id": "s1"}', { AGENT_SESSION_DIR: '/dev/null/store' }],
    ['interrupted', '{"agent_id": "s3", "interrupted": {"error": "rate_limit", "message": "usage limit reached"}}'],
  ];

  it('subagent-stop', () => {
    const cwd = store();
    const reasons: unknown[] = [];
    const fields: string[] = [];
    for (const [label, input, env] of subagentStopCases) {
      const printed = answer(BIN.subagentStop, cwd, input, env);
      const shape = SUBAGENT_STOP.shapes.find((candidate) => candidate.get('finalized')?.literal === printed.finalized);
      expect({ label, found: shape === undefined ? ['finalized: neither'] : departures(printed, shape) }).toEqual({
        label,
        found: [],
      });
      fields.push(...printedFields(printed, shape!).map((name) => `${String(printed.finalized)} ${name}`));
      if (printed.finalized === false) {
        reasons.push(printed.reason);
        expect({ label, documented: SUBAGENT_STOP.reasons.has(String(printed.reason)) }).toEqual({
          label,
          documented: true,
        });
      }
    }
    // Every documented reason was met, and every documented field of both answers printed.
    expect(new Set(reasons)).toEqual(SUBAGENT_STOP.reasons);
    const documented = SUBAGENT_STOP.shapes.flatMap((shape) =>
      fieldsOf(shape).map((name) => `${String(shape.get('finalized')!.literal)} ${name}`),
    );
    expect(new Set(fields)).toEqual(new Set(documented));
  });
});
