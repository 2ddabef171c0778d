import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  agentFileNames,
  agentTranscriptLocation,
  chooseContinuation,
  DEFAULT_CONTINUATION_SETTINGS,
  DEFAULT_MAX_TRANSCRIPT_BYTES,
  isPlainAgentId,
  isWithin,
  projectSlug,
  sessionFolders,
  sizeText,
  slugMatches,
  transcriptHead,
  type ContinuationFacts,
  type FoundTranscript,
  type SessionFolders,
} from '../../../src/core/claude-transcript';

// A real layout (Claude Code 2.1.330 and 2.1.332, tests/fixtures/claude-code/README.md): the project
// `/home/u/my_app.v2`, its session `1b0d…`, an agent of an earlier session `7b0d…`.
const HOME = '/home/u/.claude/projects';
const ROOT = '/home/u/my_app.v2';
const SLUG = '-home-u-my-app-v2';
const SESSION = '1b0d78e0-6b85-4979-96cf-89f1a90e4f8a';
const EARLIER = '7b0d78e0-6b85-4979-96cf-89f1a90e4f8a';
const AGENT = 'ab28cde9769d88b8a';
const payload = { transcript_path: `${HOME}/${SLUG}/${SESSION}.jsonl`, session_id: SESSION, cwd: ROOT };
const folders = sessionFolders(payload)!;

/** A transcript found in `sessionId`'s folder: a regular file with its meta file and a first row of this project. */
function found(sessionId: string, size = 30_180, change: Partial<FoundTranscript> = {}): FoundTranscript {
  return {
    sessionId,
    transcript: { kind: 'file', size, mtimeMs: 1000 },
    meta: { kind: 'file', size: 260, mtimeMs: 1000 },
    head: { agentId: AGENT, cwd: ROOT, sidechain: true },
    ...change,
  };
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/'));
}

function facts(change: Partial<ContinuationFacts> = {}): ContinuationFacts {
  return { agentId: AGENT, folders, here: null, earlier: [found(EARLIER)], recorded: 'stopped', ...change };
}

describe('agent ids', () => {
  it.each(['ab28cde9769d88b8a', 'a0d576975fb5c7003', 'agent-abc123', 'def456', 'A_b-9', 'x'.repeat(128)])(
    'accepts %s, and its files are two plain names',
    (id) => {
      expect(isPlainAgentId(id)).toBe(true);
      expect(agentFileNames(id)).toEqual({ transcript: `agent-${id}.jsonl`, meta: `agent-${id}.meta.json` });
    },
  );

  it.each([
    ['empty', ''],
    ['dot', '.'],
    ['dot-dot', '..'],
    ['traversal', '../a0d576975fb5c7003'],
    ['deep traversal', 'a/../../etc/passwd'],
    ['slash', 'a/b'],
    ['absolute', '/etc/passwd'],
    ['backslash', 'a\\b'],
    ['NUL', 'a0d5\u0000x'],
    ['newline', 'a0d5\nx'],
    ['dot inside', 'a.jsonl'],
    ['leading dash', '-rf'],
    ['space', 'a b'],
    ['unicode', 'agént'],
    ['too long', 'x'.repeat(129)],
    ['a number', 42],
    ['null', null],
    ['an object', { to: 'a' }],
  ])('refuses %s: no file names, and the choice is not-an-agent-id', (_label, id) => {
    expect(isPlainAgentId(id)).toBe(false);
    expect(() => agentFileNames(id as string)).toThrow(expect.objectContaining({ code: 'E_USAGE' }));
    expect(chooseContinuation(facts({ agentId: id }), DEFAULT_CONTINUATION_SETTINGS)).toMatchObject({
      kind: 'prime',
      why: 'not-an-agent-id',
    });
  });
});

describe('project slugs (every character but ASCII letters and digits becomes -)', () => {
  it.each([
    // Seen on the real binaries: the project `…/my_proj.v2 x`.
    ['/tmp/i34-2.1.330-a-new-nocopy-nDUjr1/my_proj.v2 x', '-tmp-i34-2-1-330-a-new-nocopy-nDUjr1-my-proj-v2-x'],
    ['/home/u/infra', '-home-u-infra'],
    ['/home/u/agént', '-home-u-ag-nt'],
    ['/', '-'],
  ])('%s → %s', (path, slug) => {
    expect(projectSlug(path)).toBe(slug);
    expect(slugMatches(path, slug)).toBe(true);
  });

  it('a path past 200 characters matches its first 200 and any hash, nothing shorter or else', () => {
    const long = `/home/u/${'p'.repeat(250)}`;
    const cut = projectSlug(long).slice(0, 200);
    expect(slugMatches(long, `${cut}-1x2y3z`)).toBe(true);
    expect(slugMatches(long, cut)).toBe(false);
    expect(slugMatches(long, `${cut}-`)).toBe(false);
    expect(slugMatches(long, `${cut.replace(/p$/, 'q')}-1x2y3z`)).toBe(false);
  });

  it('two paths that differ only in punctuation share a slug (Claude Code keeps both in one folder)', () => {
    expect(projectSlug('/home/u/my-app')).toBe(projectSlug('/home/u/my.app'));
  });
});

describe('sessionFolders', () => {
  it('reads the folders of a real payload', () => {
    expect(folders).toEqual<SessionFolders>({
      projectsDir: HOME,
      projectDir: `${HOME}/${SLUG}`,
      slug: SLUG,
      sessionId: SESSION,
      sessionDir: `${HOME}/${SLUG}/${SESSION}`,
      subagentsDir: `${HOME}/${SLUG}/${SESSION}/subagents`,
      projectRoot: ROOT,
    });
  });

  it('finds the project above a cwd a `cd` moved into a sub-folder (seen with 2.1.332)', () => {
    expect(sessionFolders({ ...payload, cwd: `${ROOT}/sub/deeper` })?.projectRoot).toBe(ROOT);
  });

  it('takes a configuration folder elsewhere than ~/.claude (CLAUDE_CONFIG_DIR)', () => {
    const path = `/srv/claude-config/projects/${SLUG}/${SESSION}.jsonl`;
    expect(sessionFolders({ ...payload, transcript_path: path })?.projectDir).toBe(
      `/srv/claude-config/projects/${SLUG}`,
    );
  });

  it.each([
    ['no transcript_path', { ...payload, transcript_path: undefined }],
    ['a number', { ...payload, transcript_path: 7 }],
    ['a relative path', { ...payload, transcript_path: `projects/${SLUG}/${SESSION}.jsonl` }],
    ['a .. segment', { ...payload, transcript_path: `${HOME}/${SLUG}/../${SLUG}/${SESSION}.jsonl` }],
    ['an empty segment', { ...payload, transcript_path: `${HOME}//${SLUG}/${SESSION}.jsonl` }],
    ['a NUL', { ...payload, transcript_path: `${HOME}/${SLUG}\u0000/${SESSION}.jsonl` }],
    ['another session', { ...payload, transcript_path: `${HOME}/${SLUG}/${EARLIER}.jsonl` }],
    ['not under projects/', { ...payload, transcript_path: `/home/u/.claude/other/${SLUG}/${SESSION}.jsonl` }],
    ['a session id with a slash', { ...payload, session_id: `../${SESSION}` }],
    ['a session id ..', { ...payload, session_id: '..', transcript_path: `${HOME}/${SLUG}/...jsonl` }],
    ['a cwd of another project', { ...payload, cwd: '/home/u/other' }],
    ['a cwd above the project', { ...payload, cwd: '/home/u' }],
    ['a relative cwd', { ...payload, cwd: 'my_app.v2' }],
    ['a Windows path', { ...payload, transcript_path: `C:\\Users\\u\\.claude\\projects\\${SLUG}\\${SESSION}.jsonl` }],
  ])('is null (the layout is unknown) for %s', (_label, input) => {
    expect(sessionFolders(input)).toBeNull();
  });

  it('never names a folder outside the project folder, whatever the payload (property)', () => {
    const part = fc.oneof(
      fc.constantFrom('', '.', '..', 'projects', SLUG, SESSION, `${SESSION}.jsonl`, 'a b', '\u0000', '-', 'home', 'u'),
      fc.stringMatching(/^[a-z0-9._ -]{0,8}$/),
    );
    const parts = fc.array(part, { maxLength: 5 });
    const path = parts.map((list) => `/${list.join('/')}`);
    // Mostly payloads of the right shape with hostile parts, so that many pass and their folders are checked.
    const shaped = fc
      .tuple(parts, part, fc.oneof(part, fc.constant(SESSION)), parts)
      .map(([above, slug, session, below]) => {
        const root = `/${[...above, slug].join('/')}`;
        return {
          transcript_path: `/${[...above, 'projects', projectSlug(root), `${session}.jsonl`].join('/')}`,
          session_id: session,
          cwd: `${root}/${below.join('/')}`.replace(/\/$/, ''),
        };
      });
    const any = fc.record({ transcript_path: path, session_id: part, cwd: path });
    let passed = 0;
    fc.assert(
      fc.property(fc.oneof(shaped, any), (input) => {
        const result = sessionFolders(input);
        if (result === null) return;
        passed += 1;
        for (const folder of [result.sessionDir, result.subagentsDir]) {
          expect(isWithin(folder, result.projectDir)).toBe(true);
          expect(folder.split('/').slice(1)).not.toContain('..');
          expect(folder.split('/').slice(1)).not.toContain('.');
          expect(folder).not.toContain('\u0000');
        }
        expect(parentOf(result.sessionDir)).toBe(result.projectDir);
        expect(parentOf(result.projectDir)).toBe(result.projectsDir);
        expect(isWithin(input.cwd, result.projectRoot)).toBe(true);
        expect(slugMatches(result.projectRoot, result.slug)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(passed).toBeGreaterThan(100);
  });
});

describe('agentTranscriptLocation (SubagentStop agent_transcript_path)', () => {
  const path = `${HOME}/${SLUG}/${SESSION}/subagents/agent-${AGENT}.jsonl`;
  const stop = { agent_id: AGENT, session_id: SESSION, transcript_path: `${HOME}/${SLUG}/${SESSION}.jsonl` };

  it('reads a real path, and checks it against its payload', () => {
    const location = { projectDir: `${HOME}/${SLUG}`, slug: SLUG, sessionId: SESSION, agentId: AGENT };
    expect(agentTranscriptLocation(path)).toEqual(location);
    expect(agentTranscriptLocation(path, stop)).toEqual(location);
  });

  it.each([
    ['another agent', { ...stop, agent_id: 'a0000000000000000' }],
    ['another session', { ...stop, session_id: EARLIER }],
    ['another project', { ...stop, transcript_path: `${HOME}/-other/${SESSION}.jsonl` }],
    ['no transcript_path', { ...stop, transcript_path: undefined }],
  ])('is null when the payload has %s', (_label, expected) => {
    expect(agentTranscriptLocation(path, expected)).toBeNull();
  });

  it.each([
    ['not a string', 7],
    ['relative', `projects/${SLUG}/${SESSION}/subagents/agent-${AGENT}.jsonl`],
    ['a .. segment', `${HOME}/${SLUG}/${SESSION}/../${SESSION}/subagents/agent-${AGENT}.jsonl`],
    ['another file name', `${HOME}/${SLUG}/${SESSION}/subagents/${AGENT}.jsonl`],
    ['the meta file', `${HOME}/${SLUG}/${SESSION}/subagents/agent-${AGENT}.meta.json`],
    ['a hostile id', `${HOME}/${SLUG}/${SESSION}/subagents/agent-a.b.jsonl`],
    ['no subagents folder', `${HOME}/${SLUG}/${SESSION}/agents/agent-${AGENT}.jsonl`],
    ['not under projects/', `/home/u/.claude/other/${SLUG}/${SESSION}/subagents/agent-${AGENT}.jsonl`],
    ['a future layout', `${HOME}/${SLUG}/subagents/${SESSION}/agent-${AGENT}.jsonl`],
  ])('is null for %s (another layout: the feature steps aside)', (_label, value) => {
    expect(agentTranscriptLocation(value)).toBeNull();
  });
});

describe('transcriptHead', () => {
  it('reads the first row of a real transcript', () => {
    const row = JSON.stringify({
      parentUuid: null,
      isSidechain: true,
      promptId: 'b274175c',
      agentId: AGENT,
      type: 'user',
      message: { role: 'user', content: 'TASK R1: CMD:echo R1' },
      cwd: ROOT,
      sessionId: EARLIER,
      version: '2.1.332',
    });
    expect(transcriptHead(row)).toEqual({ agentId: AGENT, cwd: ROOT, sidechain: true });
  });

  it.each([
    ['not JSON', '{"agentId": "a'],
    ['an array', '[1,2]'],
    ['a string', '"agentId"'],
    ['null', 'null'],
  ])('is null for %s', (_label, line) => {
    expect(transcriptHead(line)).toBeNull();
  });

  it('leaves out fields of the wrong type', () => {
    expect(transcriptHead('{"agentId": 7, "cwd": ["/x"], "isSidechain": "yes"}')).toEqual({});
  });
});

describe('sizeText', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [812, '812 bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [30_180, '29 KB'],
    [41 * 1024, '41 KB'],
    [DEFAULT_MAX_TRANSCRIPT_BYTES, '512 KB'],
    [2 * 1024 * 1024, '2 MB'],
    [3.1 * 1024 * 1024, '3.1 MB'],
    [5 * 1024 ** 4, '5120 GB'],
  ])('%d → %s', (bytes, text) => {
    expect(sizeText(bytes)).toBe(text);
  });
});

describe('chooseContinuation', () => {
  const settings = DEFAULT_CONTINUATION_SETTINGS;

  it('continues an agent of an earlier session, to be brought over, and says why', () => {
    const choice = chooseContinuation(facts(), settings);
    expect(choice).toEqual({
      kind: 'continue',
      where: 'earlier',
      agentId: AGENT,
      from: found(EARLIER),
      reason: `transcript 29 KB, under the 512 KB limit, in session ${EARLIER}`,
    });
  });

  it('continues an agent already in this session (the same run, --resume) without bringing anything', () => {
    const choice = chooseContinuation(facts({ here: found(SESSION, 41 * 1024) }), settings);
    expect(choice).toMatchObject({
      kind: 'continue',
      where: 'here',
      reason: 'transcript 41 KB, under the 512 KB limit, in this session',
    });
  });

  it('takes the newest of several earlier copies (a later continuation appended to its own)', () => {
    const older = found('0aaa', 30_000, { transcript: { kind: 'file', size: 30_000, mtimeMs: 1 } });
    const newer = found('0bbb', 37_000, { transcript: { kind: 'file', size: 37_000, mtimeMs: 2 } });
    expect(chooseContinuation(facts({ earlier: [older, newer] }), settings)).toMatchObject({ from: newer });
    expect(chooseContinuation(facts({ earlier: [newer, older] }), settings)).toMatchObject({ from: newer });
  });

  it('never falls back on an older copy when the newest is over the limit (it would lose the later work)', () => {
    const older = found('0aaa', 30_000, { transcript: { kind: 'file', size: 30_000, mtimeMs: 1 } });
    const newer = found('0bbb', 900_000, { transcript: { kind: 'file', size: 900_000, mtimeMs: 2 } });
    expect(chooseContinuation(facts({ earlier: [older, newer] }), settings)).toMatchObject({
      kind: 'prime',
      why: 'over-limit',
    });
  });

  it('skips a flawed newer copy (another project sharing the slug) for a sound older one', () => {
    const ours = found('0aaa', 30_000, { transcript: { kind: 'file', size: 30_000, mtimeMs: 1 } });
    const theirs = found('0bbb', 30_000, {
      transcript: { kind: 'file', size: 30_000, mtimeMs: 2 },
      head: { agentId: AGENT, cwd: '/home/u/my-app-v2', sidechain: true },
    });
    expect(chooseContinuation(facts({ earlier: [theirs, ours] }), settings)).toMatchObject({ from: ours });
  });

  it('ignores a copy in the current session listed among the earlier ones', () => {
    expect(chooseContinuation(facts({ earlier: [found(SESSION)] }), settings)).toMatchObject({ why: 'gone' });
  });

  const meta = { kind: 'file', size: 260, mtimeMs: 1 } as const;
  it.each<[string, Partial<ContinuationFacts>, { why: string; reason: string }]>([
    ['the setting is off', {}, { why: 'disabled', reason: 'continuing agents with their context is turned off' }],
    [
      'the layout is unknown',
      { folders: null },
      { why: 'layout-unknown', reason: "this Claude Code version's layout is unknown (the session's transcript_path)" },
    ],
    [
      'no session of ours records the agent (a decoy)',
      { recorded: null },
      { why: 'not-ours', reason: `no session of this project records Claude agent ${AGENT}` },
    ],
    ['the agent still runs', { recorded: 'running' }, { why: 'running', reason: `Claude agent ${AGENT} still runs` }],
    [
      'its session has ended',
      { recorded: 'ended' },
      { why: 'ended', reason: `the session of Claude agent ${AGENT} has ended` },
    ],
    [
      'the transcript is gone',
      { earlier: [] },
      { why: 'gone', reason: `transcript gone (no agent-${AGENT}.jsonl in this project's sessions)` },
    ],
    [
      'the meta file is gone',
      { earlier: [found(EARLIER, 30_180, { meta: null })] },
      {
        why: 'incomplete',
        reason: `agent-${AGENT}.meta.json is gone (without it Claude Code brings the agent back as general-purpose)`,
      },
    ],
    [
      'the transcript is a symbolic link',
      { earlier: [found(EARLIER, 30, { transcript: { kind: 'symlink', size: 30, mtimeMs: 1 } })] },
      { why: 'not-a-file', reason: `agent-${AGENT}.jsonl is a symbolic link, not a file` },
    ],
    [
      'the meta file is a folder',
      { earlier: [found(EARLIER, 30, { meta: { ...meta, kind: 'folder' } })] },
      { why: 'not-a-file', reason: `agent-${AGENT}.meta.json is a folder, not a file` },
    ],
    [
      'the first row is unreadable',
      { earlier: [found(EARLIER, 30, { head: null })] },
      { why: 'layout-unknown', reason: "this Claude Code version's layout is unknown (the transcript's first row)" },
    ],
    [
      'the first row names no folder',
      { earlier: [found(EARLIER, 30, { head: { agentId: AGENT } })] },
      { why: 'layout-unknown', reason: "this Claude Code version's layout is unknown (the transcript's first row)" },
    ],
    [
      'the first row names another agent',
      { earlier: [found(EARLIER, 30, { head: { agentId: 'a0000000000000000', cwd: ROOT } })] },
      { why: 'another-agent', reason: 'the transcript belongs to another agent (a0000000000000000)' },
    ],
    [
      "another project's (same slug, another folder)",
      { earlier: [found(EARLIER, 30, { head: { agentId: AGENT, cwd: '/home/u/my-app-v2' } })] },
      { why: 'another-project', reason: "another project's (it ran in /home/u/my-app-v2)" },
    ],
    [
      'a folder whose name only starts like the project',
      { earlier: [found(EARLIER, 30, { head: { agentId: AGENT, cwd: `${ROOT}x` } })] },
      { why: 'another-project', reason: `another project's (it ran in ${ROOT}x)` },
    ],
    [
      'over the limit',
      { earlier: [found(EARLIER, 3.1 * 1024 * 1024)] },
      { why: 'over-limit', reason: 'transcript 3.1 MB, over the 512 KB limit' },
    ],
    [
      'over the limit in this session',
      { here: found(SESSION, 600 * 1024) },
      { why: 'over-limit', reason: 'transcript 600 KB, over the 512 KB limit' },
    ],
    [
      'a flawed copy in this session (not replaced by an earlier one)',
      { here: found(SESSION, 30, { meta: null }) },
      {
        why: 'incomplete',
        reason: `agent-${AGENT}.meta.json is gone (without it Claude Code brings the agent back as general-purpose)`,
      },
    ],
  ])('primes a fresh agent when %s', (label, change, expected) => {
    const choice = chooseContinuation(facts(change), {
      ...settings,
      enabled: label !== 'the setting is off',
    });
    expect(choice).toEqual({ kind: 'prime', ...expected });
  });

  it('continues an agent that ran in a sub-folder of the project', () => {
    const head = { agentId: AGENT, cwd: `${ROOT}/modules/net` };
    expect(chooseContinuation(facts({ earlier: [found(EARLIER, 30, { head })] }), settings).kind).toBe('continue');
  });

  it('a transcript exactly at the limit is continued; one byte more is not', () => {
    const at = (size: number) => chooseContinuation(facts({ earlier: [found(EARLIER, size)] }), settings).kind;
    expect(at(DEFAULT_MAX_TRANSCRIPT_BYTES)).toBe('continue');
    expect(at(DEFAULT_MAX_TRANSCRIPT_BYTES + 1)).toBe('prime');
  });

  // Properties over arbitrary facts: the choice only ever continues a sound transcript of the facts, under the limit,
  // for a plain id, and a higher limit never turns a continuation into a primed agent.
  const entry = fc.record({
    kind: fc.constantFrom('file', 'symlink', 'folder', 'other') as fc.Arbitrary<
      'file' | 'symlink' | 'folder' | 'other'
    >,
    size: fc.nat({ max: 4 * 1024 * 1024 }),
    mtimeMs: fc.nat({ max: 100 }),
  });
  const head = fc.option(
    fc.record(
      {
        agentId: fc.constantFrom(AGENT, 'a0000000000000000'),
        cwd: fc.constantFrom(ROOT, `${ROOT}/sub`, '/home/u/my-app-v2', `${ROOT}x`),
        sidechain: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  );
  const transcript = (sessionId: fc.Arbitrary<string>) =>
    fc.record({ sessionId, transcript: entry, meta: fc.option(entry), head });
  const anyFacts = fc.record({
    agentId: fc.oneof(fc.constant(AGENT), fc.string({ maxLength: 20 })),
    folders: fc.option(fc.constant(folders), { freq: 8 }),
    here: fc.option(transcript(fc.constant(SESSION))),
    earlier: fc.array(transcript(fc.constantFrom(EARLIER, '0aaa', '0bbb', SESSION)), { maxLength: 4 }),
    recorded: fc.constantFrom('stopped', 'running', 'ended', null) as fc.Arbitrary<ContinuationFacts['recorded']>,
  });

  it('continues only a sound transcript of the facts, at most the limit, for a plain id (property)', () => {
    fc.assert(
      fc.property(anyFacts, fc.nat({ max: 4 * 1024 * 1024 }), (input, limit) => {
        const choice = chooseContinuation(input, { enabled: true, maxTranscriptBytes: limit });
        if (choice.kind === 'prime') {
          expect(choice.reason.length).toBeGreaterThan(0);
          return;
        }
        expect(isPlainAgentId(input.agentId)).toBe(true);
        expect(input.recorded).toBe('stopped');
        expect(choice.from.transcript.kind).toBe('file');
        expect(choice.from.meta?.kind).toBe('file');
        expect(choice.from.head?.agentId).toBe(input.agentId);
        expect(isWithin(choice.from.head!.cwd!, ROOT)).toBe(true);
        expect(choice.from.transcript.size).toBeLessThanOrEqual(limit);
        expect(choice.where === 'here' ? [input.here] : input.earlier).toContain(choice.from);
        if (choice.where === 'earlier') expect(choice.from.sessionId).not.toBe(SESSION);
      }),
      { numRuns: 3000 },
    );
  });

  it('a higher limit never turns a continuation into a primed agent (property)', () => {
    fc.assert(
      fc.property(anyFacts, fc.nat({ max: 4 * 1024 * 1024 }), fc.nat({ max: 4 * 1024 * 1024 }), (input, a, b) => {
        const low = chooseContinuation(input, { enabled: true, maxTranscriptBytes: Math.min(a, b) });
        const high = chooseContinuation(input, { enabled: true, maxTranscriptBytes: Math.max(a, b) });
        if (low.kind === 'continue') expect(high).toMatchObject({ kind: 'continue', from: low.from });
      }),
      { numRuns: 3000 },
    );
  });
});

describe('what the real Claude Code 2.1.330 and 2.1.332 send and write (tests/fixtures/claude-code)', () => {
  const fixtures = join(__dirname, '..', '..', 'fixtures', 'claude-code');
  const read = (name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as Record<string, unknown>;

  it.each(['2.1.330', '2.1.332'])(
    '%s: PreToolUse(SendMessage) has the layout, and `to` is a plain agent id',
    (version) => {
      const payload = read(`pre-tool-use-send-message-${version}.json`);
      expect(sessionFolders(payload)).toMatchObject({
        projectDir: '/home/u/.claude/projects/-home-u-infra',
        subagentsDir: `/home/u/.claude/projects/-home-u-infra/${String(payload.session_id)}/subagents`,
        projectRoot: '/home/u/infra',
      });
      const input = payload.tool_input as { to: string; recipient: string };
      expect(isPlainAgentId(input.to)).toBe(true);
      expect(input.recipient).toBe(input.to);
    },
  );

  it.each(['2.1.330', '2.1.332'])("%s: a transcript's first row names its agent and folder", (version) => {
    const name = readdirSync(join(fixtures, 'subagents')).find((file) => file.endsWith(`-${version}.first-row.jsonl`))!;
    const agentId = /^agent-(a[0-9a-f]{16})-/.exec(name)![1];
    const line = readFileSync(join(fixtures, 'subagents', name), 'utf8').split('\n')[0]!;
    expect(transcriptHead(line)).toEqual({ agentId, cwd: '/home/u/infra', sidechain: true });
  });

  it('2.1.332: SubagentStop of a continued agent points into the new session, at the file the layout names', () => {
    const stop = read('subagent-stop-continued-2.1.332.json');
    const folders = sessionFolders(stop)!;
    expect(stop.agent_transcript_path).toBe(
      `${folders.subagentsDir}/${agentFileNames(String(stop.agent_id)).transcript}`,
    );
    expect(agentTranscriptLocation(stop.agent_transcript_path, stop)).toMatchObject({ agentId: stop.agent_id });
  });
});
