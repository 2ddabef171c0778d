// Issue 34's I/O on a real file system laid out as Claude Code 2.1.330 and 2.1.332 lay it out
// (`<home>/.claude/projects/<slug>/<session>/subagents/agent-<id>.{jsonl,meta.json}`), with decoys and hostile entries:
// another project's agent, a project sharing the slug, links in the place of folders and files, hostile ids.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONTINUATION_SETTINGS, projectSlug } from '../../../src/core/claude-transcript';
import {
  continuationOf,
  continueWithContext,
  gatherContinuationFacts,
  type ContinuationAsk,
} from '../../../src/service/agent-transcripts';

// The node:fs module object itself (what src/ requires): its functions can be spied on, unlike a namespace import.
const fs: typeof import('node:fs') = jest.requireActual('node:fs');

const AGENT = 'ab28cde9769d88b8a';
const EARLIER = '7b0d78e0-6b85-4979-96cf-89f1a90e4f8a';
const CURRENT = '1b0d78e0-6b85-4979-96cf-89f1a90e4f8a';

let base: string;
let root: string;
let projects: string;
let projectDir: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-session-transcripts-'));
  root = join(base, 'work', 'my_app.v2');
  mkdirSync(root, { recursive: true });
  projects = join(base, 'home', '.claude', 'projects');
  projectDir = join(projects, projectSlug(root));
  mkdirSync(projectDir, { recursive: true });
  // The current session's main transcript, as Claude Code writes it before any hook runs.
  writeFileSync(join(projectDir, `${CURRENT}.jsonl`), '{"type":"user"}\n');
});
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(base, { recursive: true, force: true });
});

/** Rows of a sub-agent transcript whose first row is as Claude Code writes it. */
function rows(agentId: string, cwd: string, rounds = 1): string {
  const first = {
    parentUuid: null,
    isSidechain: true,
    agentId,
    type: 'user',
    message: { role: 'user', content: 'TASK' },
    cwd,
  };
  const more = Array.from({ length: rounds }, (_, i) => ({ type: 'assistant', agentId, round: i }));
  return `${[first, ...more].map((row) => JSON.stringify(row)).join('\n')}\n`;
}

/** Writes an agent's two files into `session`'s folder of `project` (default: ours). */
function agentIn(
  session: string,
  options: { agentId?: string; cwd?: string; project?: string; meta?: boolean; rounds?: number } = {},
): string {
  const agentId = options.agentId ?? AGENT;
  const folder = join(options.project ?? projectDir, session, 'subagents');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `agent-${agentId}.jsonl`), rows(agentId, options.cwd ?? root, options.rounds));
  if (options.meta !== false)
    writeFileSync(join(folder, `agent-${agentId}.meta.json`), '{"agentType":"terraform-architect","finished":true}');
  return folder;
}

function ask(change: Partial<ContinuationAsk> = {}): ContinuationAsk {
  return {
    payload: { transcript_path: join(projectDir, `${CURRENT}.jsonl`), session_id: CURRENT, cwd: root },
    agentId: AGENT,
    recorded: 'stopped',
    ...change,
  };
}

const current = (...names: string[]) => join(projectDir, CURRENT, 'subagents', ...names);

/** Every entry under the project folder, for "nothing changed" checks. */
function tree(dir = projectDir): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('continueWithContext (PreToolUse(SendMessage))', () => {
  it('brings both files of an agent of an earlier session: the same bytes, private, in folders it makes 0700', () => {
    const from = agentIn(EARLIER);
    const result = continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS);
    expect(result.choice).toMatchObject({
      kind: 'continue',
      where: 'earlier',
      reason: expect.stringContaining(EARLIER),
    });
    expect(result.brought).toBe('copied');
    for (const name of [`agent-${AGENT}.jsonl`, `agent-${AGENT}.meta.json`]) {
      expect(readFileSync(current(name))).toEqual(readFileSync(join(from, name)));
      expect(statSync(current(name)).mode & 0o777).toBe(0o600);
    }
    expect(statSync(join(projectDir, CURRENT)).mode & 0o777).toBe(0o700);
    expect(statSync(current()).mode & 0o777).toBe(0o700);
    expect(readdirSync(current()).sort()).toEqual([`agent-${AGENT}.jsonl`, `agent-${AGENT}.meta.json`]);
  });

  it('brings nothing when the agent is already in this session (the same run, --resume), and changes nothing', () => {
    agentIn(EARLIER);
    agentIn(CURRENT, { rounds: 3 });
    const before = readFileSync(current(`agent-${AGENT}.jsonl`), 'utf8');
    const result = continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS);
    expect(result).toEqual({ choice: expect.objectContaining({ kind: 'continue', where: 'here' }) });
    expect(readFileSync(current(`agent-${AGENT}.jsonl`), 'utf8')).toBe(before);
  });

  it('brings the newest copy when a later session continued the agent already', () => {
    agentIn(EARLIER, { rounds: 1 });
    const later = '2c0d78e0-6b85-4979-96cf-89f1a90e4f8a';
    const newer = agentIn(later, { rounds: 5 });
    utimesSync(join(newer, `agent-${AGENT}.jsonl`), new Date(), new Date(Date.now() + 60_000));
    expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS).brought).toBe('copied');
    expect(readFileSync(current(`agent-${AGENT}.jsonl`), 'utf8')).toBe(rows(AGENT, root, 5));
  });

  it('keeps a meta file already in this session, and brings the transcript beside it', () => {
    agentIn(EARLIER);
    mkdirSync(current(), { recursive: true });
    writeFileSync(current(`agent-${AGENT}.meta.json`), '{"agentType":"kept"}');
    expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS).brought).toBe('copied');
    expect(readFileSync(current(`agent-${AGENT}.meta.json`), 'utf8')).toBe('{"agentType":"kept"}');
    expect(existsSync(current(`agent-${AGENT}.jsonl`))).toBe(true);
  });

  it('a decoy: an agent of another project (another slug) is not found, and nothing is made here', () => {
    const other = join(projects, projectSlug(join(base, 'work', 'other')));
    agentIn(EARLIER, { project: other, cwd: join(base, 'work', 'other') });
    const before = tree();
    const result = continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS);
    expect(result).toEqual({ choice: expect.objectContaining({ kind: 'prime', why: 'gone' }) });
    expect(tree()).toEqual(before);
  });

  it("a decoy sharing our slug (`my-app.v2` beside `my_app.v2`) is another project's, and is not brought", () => {
    const twin = join(base, 'work', 'my-app.v2');
    expect(projectSlug(twin)).toBe(projectSlug(root));
    agentIn(EARLIER, { cwd: twin });
    const before = tree();
    expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS)).toEqual({
      choice: { kind: 'prime', why: 'another-project', reason: `another project's (it ran in ${twin})` },
    });
    expect(tree()).toEqual(before);
  });

  it('an id no session of ours records (SendMessage to another project’s agent) is not looked for', () => {
    agentIn(EARLIER);
    const before = tree();
    expect(continueWithContext(ask({ recorded: null }), DEFAULT_CONTINUATION_SETTINGS).choice).toMatchObject({
      why: 'not-ours',
    });
    expect(tree()).toEqual(before);
  });

  it('brings a transcript larger than what is read of its first row (300 KB under the 512 KB limit)', () => {
    const from = agentIn(EARLIER);
    writeFileSync(
      join(from, `agent-${AGENT}.jsonl`),
      `${rows(AGENT, root)}${'{"pad":"' + 'x'.repeat(300 * 1024) + '"}'}\n`,
    );
    const result = continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS);
    expect(result).toMatchObject({
      choice: { kind: 'continue', reason: expect.stringMatching(/^transcript 300 KB/) },
      brought: 'copied',
    });
    expect(readFileSync(current(`agent-${AGENT}.jsonl`))).toEqual(readFileSync(join(from, `agent-${AGENT}.jsonl`)));
  });

  it('over the limit: a primed agent, nothing brought', () => {
    agentIn(EARLIER, { rounds: 200 });
    const before = tree();
    const result = continueWithContext(ask(), { enabled: true, maxTranscriptBytes: 1024 });
    expect(result.choice).toMatchObject({
      kind: 'prime',
      why: 'over-limit',
      reason: expect.stringMatching(/^transcript \d+ KB, over the 1 KB limit$/),
    });
    expect(tree()).toEqual(before);
  });

  it('turned off: nothing looked at, nothing brought', () => {
    agentIn(EARLIER);
    const before = tree();
    expect(continueWithContext(ask(), { ...DEFAULT_CONTINUATION_SETTINGS, enabled: false }).choice).toMatchObject({
      why: 'disabled',
    });
    expect(tree()).toEqual(before);
  });

  it('without its meta file the agent is not brought (it would come back as general-purpose)', () => {
    agentIn(EARLIER, { meta: false });
    const before = tree();
    expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS).choice).toMatchObject({ why: 'incomplete' });
    expect(tree()).toEqual(before);
  });

  it.each([
    ['traversal', `../${EARLIER}/subagents/agent-${AGENT}`],
    ['dot-dot', '..'],
    ['a slash', `x/${AGENT}`],
    ['an absolute path', '/etc/passwd'],
    ['a NUL', `${AGENT}\u0000`],
    ['a dot', `${AGENT}.meta`],
    ['empty', ''],
    ['not a string', 17],
  ])('a hostile id (%s) is refused before any disk access: nothing read, nothing made', (_label, agentId) => {
    agentIn(EARLIER);
    const before = tree();
    const looks = ['lstatSync', 'readdirSync', 'openSync', 'statSync'].map((name) =>
      jest.spyOn(fs, name as 'lstatSync'),
    );
    const result = continueWithContext(ask({ agentId }), DEFAULT_CONTINUATION_SETTINGS);
    for (const look of looks) expect(look).not.toHaveBeenCalled();
    jest.restoreAllMocks();
    expect(result).toEqual({ choice: expect.objectContaining({ kind: 'prime', why: 'not-an-agent-id' }) });
    expect(tree()).toEqual(before);
  });

  it('a payload whose transcript_path leaves the projects folder is an unknown layout: nothing made', () => {
    agentIn(EARLIER);
    const before = tree();
    const payload = {
      transcript_path: join(projectDir, '..', '..', `${CURRENT}.jsonl`),
      session_id: CURRENT,
      cwd: root,
    };
    const raw = { ...payload, transcript_path: `${projectDir}/../../${CURRENT}.jsonl` };
    for (const p of [payload, raw])
      expect(continueWithContext(ask({ payload: p }), DEFAULT_CONTINUATION_SETTINGS).choice).toMatchObject({
        why: 'layout-unknown',
      });
    expect(tree()).toEqual(before);
    expect(existsSync(join(projects, CURRENT))).toBe(false);
  });

  describe('links', () => {
    it('an earlier session folder that is a link (to another project’s session) is not followed', () => {
      const elsewhere = join(base, 'elsewhere');
      agentIn('s', { project: elsewhere });
      symlinkSync(join(elsewhere, 's'), join(projectDir, EARLIER));
      expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS).choice).toMatchObject({ why: 'gone' });
      expect(existsSync(current())).toBe(false);
    });

    it('an earlier subagents folder that is a link is not followed', () => {
      const elsewhere = agentIn('s', { project: join(base, 'elsewhere') });
      mkdirSync(join(projectDir, EARLIER));
      symlinkSync(elsewhere, join(projectDir, EARLIER, 'subagents'));
      expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS).choice).toMatchObject({ why: 'gone' });
    });

    it.each(['jsonl', 'meta.json'])('an earlier agent-<id>.%s that is a link is not copied', (ext) => {
      const folder = agentIn(EARLIER);
      const file = join(folder, `agent-${AGENT}.${ext}`);
      const target = join(base, `target.${ext}`);
      writeFileSync(target, readFileSync(file));
      rmSync(file);
      symlinkSync(target, file);
      expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS).choice).toMatchObject({ why: 'not-a-file' });
      expect(existsSync(current())).toBe(false);
    });

    it('a current session folder that is a link is refused: nothing written through it', () => {
      agentIn(EARLIER);
      const victim = join(base, 'victim');
      mkdirSync(victim);
      symlinkSync(victim, join(projectDir, CURRENT));
      expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS)).toMatchObject({
        choice: { kind: 'continue' },
        brought: 'refused',
      });
      expect(readdirSync(victim)).toEqual([]);
    });

    it('a current subagents folder that is a link is refused: nothing written through it', () => {
      agentIn(EARLIER);
      const victim = join(base, 'victim');
      mkdirSync(victim);
      mkdirSync(join(projectDir, CURRENT));
      symlinkSync(victim, current());
      expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS).brought).toBe('refused');
      expect(readdirSync(victim)).toEqual([]);
    });

    it('a link already in the place of the current transcript is kept, never written through', () => {
      agentIn(EARLIER);
      mkdirSync(current(), { recursive: true });
      const victim = join(base, 'victim.jsonl');
      symlinkSync(victim, current(`agent-${AGENT}.jsonl`));
      // The link here is the agent's transcript in this session: it is judged (not a file) and nothing is brought.
      expect(continueWithContext(ask(), DEFAULT_CONTINUATION_SETTINGS)).toEqual({
        choice: expect.objectContaining({ kind: 'prime', why: 'not-a-file' }),
      });
      expect(existsSync(victim)).toBe(false);
      expect(lstatSync(current(`agent-${AGENT}.jsonl`)).isSymbolicLink()).toBe(true);
    });
  });
});

describe('continuationOf (the context before a delegation, show)', () => {
  it('says whether a recorded agent can be continued, and changes nothing', () => {
    agentIn(EARLIER);
    const before = tree();
    expect(continuationOf(ask(), DEFAULT_CONTINUATION_SETTINGS)).toMatchObject({
      kind: 'continue',
      where: 'earlier',
      reason: expect.stringMatching(
        new RegExp(`^transcript \\d+ bytes, under the 512 KB limit, in session ${EARLIER}$`),
      ),
    });
    expect(tree()).toEqual(before);
  });
});

describe('gatherContinuationFacts', () => {
  it('reads every session folder of the project but the current one, and the first row of each transcript', () => {
    agentIn(EARLIER);
    agentIn('2c0d78e0', { meta: false });
    mkdirSync(join(projectDir, 'memory'));
    const facts = gatherContinuationFacts(ask());
    expect(facts.here).toBeNull();
    expect(facts.earlier.map((f) => [f.sessionId, f.meta?.kind ?? null, f.head])).toEqual([
      ['2c0d78e0', null, { agentId: AGENT, cwd: root, sidechain: true }],
      [EARLIER, 'file', { agentId: AGENT, cwd: root, sidechain: true }],
    ]);
  });

  it('looks only in the hinted session when the transcript is there, and scans the project when it is not', () => {
    agentIn(EARLIER);
    const later = '2c0d78e0-6b85-4979-96cf-89f1a90e4f8a';
    agentIn(later, { rounds: 4 });
    const scans = jest.spyOn(fs, 'readdirSync');
    expect(gatherContinuationFacts(ask({ sessionHint: later })).earlier.map((f) => f.sessionId)).toEqual([later]);
    expect(scans).not.toHaveBeenCalled();
    const missing = gatherContinuationFacts(ask({ sessionHint: '3d0d78e0-6b85-4979-96cf-89f1a90e4f8a' }));
    expect(missing.earlier.map((f) => f.sessionId).sort()).toEqual([later, EARLIER].sort());
    expect(scans).toHaveBeenCalled();
  });

  it('reads no other session folder when the transcript is in this session already', () => {
    agentIn(EARLIER);
    agentIn(CURRENT);
    const scans = jest.spyOn(fs, 'readdirSync');
    const facts = gatherContinuationFacts(ask());
    expect(facts.here?.sessionId).toBe(CURRENT);
    expect(facts.earlier).toEqual([]);
    expect(scans).not.toHaveBeenCalled();
  });

  it.each([['..'], ['../other'], [CURRENT], ['']])('ignores a hint that is no other session folder (%j)', (hint) => {
    agentIn(EARLIER);
    expect(gatherContinuationFacts(ask({ sessionHint: hint })).earlier.map((f) => f.sessionId)).toEqual([EARLIER]);
  });
});
