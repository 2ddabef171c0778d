// Issue 22: a session whose agent died of a host failure (an API error, a usage limit). The pure rules: what is kept
// of the failure, the session left open in its phase, the version it is written with, coherence, the resume verdict,
// and what show's explanation, the timeline, stats and the inbox make of it.
import { orphanedStartReason } from '../../../src/core/claude-link';
import { stopOutcome } from '../../../src/core/stop-policy';
import { assertCoherent, assertNotAhead } from '../../../src/core/coherence';
import { approveState } from '../../../src/core/decision';
import { explainResume } from '../../../src/core/views/explain';
import { capHistory, withResume } from '../../../src/core/history';
import { inboxOf } from '../../../src/core/views/inbox';
import {
  INTERRUPTION_MESSAGE_LIMIT,
  interruptionCause,
  interruptionKind,
  interruptionMessage,
  isInterrupted,
  turnInterruption,
  withInterruption,
} from '../../../src/core/interruption';
import { DEFAULT_LIMITS } from '../../../src/core/limits';
import { isParked, newestVerdict } from '../../../src/core/parking';
import { WORK_PHASES, type WorkPhase } from '../../../src/core/phase-names';
import { resumeVerdict } from '../../../src/core/phases';
import { applyChange, finalizeState, newSession } from '../../../src/core/session';
import { parseState, type SessionState } from '../../../src/core/state';
import { isWellFormed } from '../../../src/core/text';
import { computeStats } from '../../../src/core/views/stats';
import { timelineOf } from '../../../src/core/views/timeline';
import { codeOf } from '../../helpers';
import { AT_TERMINAL } from '../../support/origin';

const t0 = new Date('2026-01-08T18:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const RATE_LIMIT = { error: 'rate_limit', message: 'API Error: Request rejected (429) · usage limit reached' };

/** A session moved to `phase` (through executing for validating) at minute 1. */
function inPhase(phase: WorkPhase): SessionState {
  const fresh = newSession({ agent_id: 'agent-1', agent_name: 'architect', purpose: 'p' }, t0);
  if (phase === 'initializing') return fresh;
  const path: WorkPhase[] = phase === 'validating' ? ['executing', 'validating'] : [phase];
  return path.reduce((state, step) => applyChange(state, { phase: step }, at(1)), fresh);
}

/** Written and read back as the store would: the schema, the version rule, and the coherence an import checks. */
function roundTrip(state: SessionState): SessionState {
  const read = parseState(JSON.parse(JSON.stringify(state)));
  assertCoherent(read);
  return read;
}

describe('withInterruption', () => {
  it.each(WORK_PHASES.map((phase) => [phase]))(
    'in %s: the session stays open in its phase, waits, and counts it apart from errors',
    (phase) => {
      const state = withInterruption(inPhase(phase), { ...RATE_LIMIT, agent_id: 'a1' }, at(5));
      expect(state.phase).toBe(phase);
      expect(state.error_count).toBe(0);
      expect(state.last_error).toBeNull();
      expect(state.interruption).toEqual({
        count: 1,
        carried_on: 0,
        waiting: true,
        at: at(5).toISOString(),
        ...RATE_LIMIT,
        phase,
        agent_id: 'a1',
      });
      expect(state.history.at(-1)).toEqual({
        from_phase: phase,
        to_phase: phase,
        timestamp: at(5).toISOString(),
        event: 'interrupted',
      });
      expect(state.last_updated).toBe(at(5).toISOString());
      expect(roundTrip(state)).toEqual(state);
    },
  );

  it('a session already waiting is returned as it is: one failure reported twice is one interruption', () => {
    const once = withInterruption(inPhase('executing'), RATE_LIMIT, at(5));
    expect(withInterruption(once, { error: 'server_error', message: 'other' }, at(6))).toBe(once);
  });

  it('once carried on, a new failure is a second interruption', () => {
    const first = withResume(withInterruption(inPhase('executing'), RATE_LIMIT, at(5)), at(60));
    const second = withInterruption(first, { error: 'server_error' }, at(70));
    expect(second.interruption).toMatchObject({ count: 2, carried_on: 1, waiting: true, error: 'server_error' });
    expect(second.interruption?.message).toBeUndefined();
    expect(roundTrip(second)).toEqual(second);
  });

  it('refuses a final session (E_ILLEGAL_TRANSITION)', () => {
    const done = finalizeState(inPhase('executing'), 'completed', undefined, at(2));
    expect(codeOf(() => withInterruption(done, RATE_LIMIT, at(3)))).toBe('E_ILLEGAL_TRANSITION');
  });
});

describe('what is kept of the failure', () => {
  it.each([
    ['rate_limit', 'rate_limit'],
    ['a_future_kind_2', 'a_future_kind_2'],
    ['Rate Limit', 'unknown'],
    ['', 'unknown'],
    [undefined, 'unknown'],
    [42, 'unknown'],
  ])('the kind %p is stored as %p', (given, stored) => {
    expect(interruptionKind(given)).toBe(stored);
  });

  it('a message is one line, cut to its limit', () => {
    const long = `API Error:\n\n${'x '.repeat(400)}`;
    const kept = interruptionMessage(long)!;
    expect(kept.length).toBe(INTERRUPTION_MESSAGE_LIMIT);
    expect(kept).not.toContain('\n');
    expect(kept.endsWith('…')).toBe(true);
    expect(interruptionMessage('   ')).toBeUndefined();
    expect(interruptionMessage(undefined)).toBeUndefined();
  });

  it.each([
    ['an Anthropic key', 'invalid x-api-key sk-ant-api03-AbCdEf0123456789_xyz-ABC', 'sk-ant-api03'],
    ['a bearer token', 'Authorization failed for Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig', 'eyJhbGci'],
    ['a key-like field', '{"api_key": "abc123secretvalue", "x": 1}', 'abc123secretvalue'],
    ['a password', 'password=hunter2hunter2 rejected', 'hunter2'],
    ['an AWS key', 'cloud credentials AKIAIOSFODNN7EXAMPLE were refused', 'AKIAIOSFODNN7EXAMPLE'],
    ['a long secret of another form', `token ${'a1B2'.repeat(12)} expired`, 'a1B2a1B2a1B2'],
    // Issue 30 item 10: the common forms round four found kept.
    ['an AWS secret by its name', 'AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
    ['an AWS secret alone', 'signing with wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY failed', 'K7MDENG'],
    ['an AWS temporary key id', 'key ASIAIOSFODNN7EXAMPLE expired', 'ASIAIOSFODNN7EXAMPLE'],
    ['Basic credentials of an Authorization header', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpw'],
    ['a Bearer Authorization header', 'authorization: Bearer abc.def.ghi123', 'abc.def'],
    ['a quoted Authorization header', '{"Authorization": "Token 0123456789abcdef"}', '0123456789abcdef'],
    ['a proxy Authorization header', 'Proxy-Authorization: Basic Zm9vOmJhcg==', 'Zm9vOmJhcg'],
    ['a bearer token alone', 'got 401 for bearer tok_live_9f8e7d6c', 'tok_live_9f8e7d6c'],
    ['an OpenAI project key', 'Incorrect API key provided: sk-proj-AbC123dEf456', 'AbC123dEf456'],
    ['a Stripe live key', 'stripe said sk_live_51HxYzAbCdEf is invalid', '51HxYzAbCdEf'],
    ['a GitHub token', 'push refused for ghp_16C7e42F292c6912E7710c838347Ae178B4a', '16C7e42F292c'],
    ['a GitHub fine-grained token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop rejected', '11ABCDEFG0123'],
    ['a Slack bot token', 'slack: invalid_auth xoxb-1234567890-0987654321-AbCdEfGhIj', '1234567890'],
    ['a Google API key', 'key=AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q rejected', 'SyA1b2C3d4'],
    ['an npm token', 'npm ERR! 401 npm_AbCdEf0123456789AbCdEf0123456789AbCd', 'AbCdEf0123456789'],
    ['a JWT alone', 'session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig expired', 'eyJzdWIiOiIx'],
    ['a URL password', 'cannot reach postgres://deploy:hunter2secret@db.internal:5432/prod', 'hunter2secret'],
    ['an https URL password', 'clone of https://ci:glpat-xyz123@gitlab.com/acme/api.git failed', 'glpat-xyz123'],
    ['a GITHUB_TOKEN variable', 'GITHUB_TOKEN=abcdef0123 was refused', 'abcdef0123'],
    ['a client secret', 'client_secret: "s3cr3t-value" is wrong', 's3cr3t-value'],
    [
      'a private key block',
      'key -----BEGIN RSA PRIVATE KEY----- MIIEpAIBAAKCAQEA -----END RSA PRIVATE KEY-----',
      'MIIEpAIB',
    ],
  ])('%s is masked', (_label, text, secret) => {
    const kept = interruptionMessage(text)!;
    expect(kept).not.toContain(secret);
    expect(kept).toContain('[masked]');
  });

  it('a message cut at an emoji keeps the pair whole (issue 30 item 2: no lone surrogate)', () => {
    const kept = interruptionMessage(`${'a'.repeat(298)}${'\u{1F600}'.repeat(100)}`)!;
    expect(isWellFormed(kept)).toBe(true);
    expect(kept).toBe(`${'a'.repeat(298)}…`);
  });

  it('a key that spans the cut is masked before the text is cut', () => {
    const text = `${'y '.repeat(145)}sk-ant-api03-${'Z'.repeat(40)}`;
    expect(interruptionMessage(text)).not.toMatch(/ZZZ/);
  });

  it.each([
    [
      'ordinary words, request ids and HTTP codes',
      'API Error: 400 injected failure (error type unknown, HTTP 400, request id req_011CXabc123)',
    ],
    ['a token count', 'prompt is too long: max_tokens: 4096 > 2048 input_tokens: 190000'],
    ['a URL without a password', 'POST https://api.anthropic.com/v1/messages failed: 529 overloaded'],
    ['a URL with a user and no password', 'ssh://git@github.com:acme/api refused'],
    ['the word author', 'author: Ada (no change)'],
    ['a path', 'ENOENT: /home/me/projects/agent-session/src/core/interruption.ts'],
  ])('%s: kept as it is', (_label, text) => {
    expect(interruptionMessage(text)).toBe(text);
  });

  it.each([
    ['rate_limit', 'a rate or usage limit (rate_limit)'],
    ['server_error', 'an API server error (server_error)'],
    ['unknown', 'an API error (unknown)'],
    ['constructor', 'an API error (constructor)'],
  ])('%s reads as %p', (kind, text) => {
    expect(interruptionCause(kind)).toBe(text);
  });
});

describe('the version it is written with (older files stay readable)', () => {
  it('an interruption makes a session version 4; without one it keeps the version its content needs', () => {
    expect(inPhase('executing').schema_version).toBe(1);
    expect(withInterruption(inPhase('executing'), RATE_LIMIT, at(2)).schema_version).toBe(4);
  });

  it('a decision on an interrupted session keeps version 4 (not the decision’s 3)', () => {
    const interrupted = withInterruption(inPhase('approval'), RATE_LIMIT, at(2));
    const approved = approveState(interrupted, { by: 'bob' }, AT_TERMINAL, at(3));
    expect(approved.schema_version).toBe(4);
    expect(roundTrip(approved)).toEqual(approved);
  });

  it.each([1, 2, 3])('a file that says version %i but holds an interruption is refused (E_CORRUPT)', (version) => {
    const state = withInterruption(inPhase('executing'), RATE_LIMIT, at(2));
    expect(codeOf(() => parseState({ ...state, schema_version: version }))).toBe('E_CORRUPT');
  });

  it('a version 4 file without an interruption is refused (E_CORRUPT)', () => {
    expect(codeOf(() => parseState({ ...inPhase('executing'), schema_version: 4 }))).toBe('E_CORRUPT');
  });
});

describe('coherence (imports)', () => {
  const interrupted = () => withInterruption(inPhase('executing'), RATE_LIMIT, at(2));
  it.each([
    ['more carried on than interruptions', (s: SessionState) => ({ ...s.interruption!, carried_on: 1 })],
    ['a count that disagrees with the history', (s: SessionState) => ({ ...s.interruption!, count: 2 })],
    ['a time after the last activity', (s: SessionState) => ({ ...s.interruption!, at: at(9).toISOString() })],
  ])('refuses %s', (_label, change) => {
    const state = interrupted();
    expect(codeOf(() => assertCoherent({ ...state, interruption: change(state) }))).toBe('E_CORRUPT');
  });

  it('refuses an interrupted history entry without the record', () => {
    const { interruption: _record, ...state } = interrupted();
    expect(codeOf(() => assertCoherent(state))).toBe('E_CORRUPT');
  });

  it('a resume in executing or validating is coherent only when it carries on an interruption', () => {
    const plain = withResume(inPhase('validating'), at(3));
    expect(codeOf(() => assertCoherent(plain))).toBe('E_CORRUPT');
    const carried = withResume(withInterruption(inPhase('validating'), RATE_LIMIT, at(2)), at(3));
    expect(() => assertCoherent(carried)).not.toThrow();
    // A second resume after it has nothing left to carry on.
    expect(codeOf(() => assertCoherent(withResume(carried, at(4))))).toBe('E_CORRUPT');
  });

  it('a history cap that drops the interruption entry keeps the session coherent', () => {
    let state = withResume(withInterruption(inPhase('executing'), RATE_LIMIT, at(2)), at(3));
    state = capHistory(state, 1);
    expect(state.history).toHaveLength(1);
    expect(() => assertCoherent(state)).not.toThrow();
  });

  it('an interruption time ahead of the clock is refused on import', () => {
    const state = interrupted();
    expect(codeOf(() => assertNotAhead(state, at(-60), DEFAULT_LIMITS))).toBe('E_CORRUPT');
  });
});

describe('the resume verdict', () => {
  it.each(WORK_PHASES.map((phase) => [phase]))(
    'in %s it is carried on (session_interrupted), hours later too: no idle timeout',
    (phase) => {
      const state = withInterruption(inPhase(phase), RATE_LIMIT, at(2));
      expect(resumeVerdict(state, at(5 * 60), DEFAULT_LIMITS)).toBe('session_interrupted');
      expect(isParked(state, at(5 * 60), DEFAULT_LIMITS)).toBe(true);
    },
  );

  it('the error limit and the clock still apply', () => {
    let state = inPhase('executing');
    for (let i = 0; i < 3; i++) state = applyChange(state, { error: `boom ${i}` }, at(1));
    state = withInterruption(state, RATE_LIMIT, at(2));
    expect(resumeVerdict(state, at(3), DEFAULT_LIMITS)).toBe('too_many_errors');
    const ahead = withInterruption(inPhase('executing'), RATE_LIMIT, at(120));
    expect(resumeVerdict(ahead, at(0), DEFAULT_LIMITS)).toBe('clock_skew');
  });

  it('carried on, the session follows the ordinary rules again', () => {
    const carried = withResume(withInterruption(inPhase('executing'), RATE_LIMIT, at(2)), at(3));
    expect(isInterrupted(carried)).toBe(false);
    expect(resumeVerdict(carried, at(4), DEFAULT_LIMITS)).toBe('phase_not_resumable');
    const parked = withResume(withInterruption(inPhase('approval'), RATE_LIMIT, at(2)), at(3));
    expect(resumeVerdict(parked, at(4 + 31), DEFAULT_LIMITS)).toBe('session_expired');
  });

  it('a Claude agent running it (a link without stopped_at) is session_running, as for any parked session', () => {
    const state = {
      ...withInterruption(inPhase('executing'), RATE_LIMIT, at(2)),
      claude: { agent_id: 'a2', linked_at: at(2).toISOString() },
    };
    expect(newestVerdict(state, at(3), DEFAULT_LIMITS)).toBe('session_running');
  });

  it('the stop policy keeps it, whatever its phase; cleanup does not take it for an orphaned start', () => {
    for (const phase of WORK_PHASES) {
      const state = withInterruption(inPhase(phase), RATE_LIMIT, at(2));
      expect(stopOutcome(state, 3)).toBe('kept');
    }
    const start = {
      ...withInterruption(inPhase('initializing'), RATE_LIMIT, at(2)),
      claude: { agent_id: 'a1', linked_at: at(0).toISOString(), stopped_at: at(2).toISOString() },
    };
    expect(orphanedStartReason(start, at(60), DEFAULT_LIMITS)).toBeNull();
  });

  it('the explanation says why each rule passes', () => {
    const state = withInterruption(inPhase('executing'), RATE_LIMIT, at(2));
    const explained = explainResume(state, at(300), DEFAULT_LIMITS);
    expect(explained).toMatchObject({ should_resume: true, reason: 'session_interrupted' });
    expect(explained.checks.every((check) => check.ok)).toBe(true);
    expect(explained.checks.find((check) => check.rule === 'phase')?.text).toContain('interrupted by a rate or usage');
    expect(explained.checks.find((check) => check.rule === 'idle')?.text).toContain('no idle limit');
  });
});

describe('the figures and the story', () => {
  const waiting = withInterruption(inPhase('executing'), RATE_LIMIT, at(2));
  const carried = withResume(withInterruption(inPhase('planning'), { error: 'server_error' }, at(2)), at(3));
  const plain = inPhase('approval');

  it('stats counts interruptions apart from errors, how many were carried on and how many wait now', () => {
    const { overall } = computeStats([waiting, carried, plain], { now: at(10), limits: DEFAULT_LIMITS });
    expect(overall).toMatchObject({ interruptions: 2, carried_on: 1, interrupted_now: 1, by_error_count: { 0: 3 } });
    // All three may be resumed: the waiting one carried on, the other two parked in planning and approval.
    expect(overall.resumable_now).toBe(3);
  });

  it('the inbox lists an interrupted session in any phase, with what interrupted it and no time limit', () => {
    const inbox = inboxOf([waiting, carried, plain], at(10), DEFAULT_LIMITS);
    const entry = inbox.find((item) => item.agent_id === waiting.agent_id && item.phase === 'executing');
    expect(entry).toMatchObject({
      waiting_since: at(2).toISOString(),
      expires_in_seconds: null,
      resumable: true,
      reason: 'session_interrupted',
      interrupted: { at: at(2).toISOString(), error: 'rate_limit' },
      waits_on: { source: 'interruption', text: `rate_limit: ${RATE_LIMIT.message}` },
    });
    // The carried-on one in planning waits as any parked session does.
    expect(inbox.filter((item) => item.interrupted === null)).toHaveLength(2);
  });

  it('the timeline shows each interruption in its phase, the last with its kind and message', () => {
    const twice = withInterruption(withResume(waiting, at(3)), { error: 'server_error', message: 'boom' }, at(4));
    const events = timelineOf(twice, at(5)).events.filter((event) => event.kind === 'interrupted');
    expect(events).toEqual([
      { kind: 'interrupted', at: at(2).toISOString(), phase: 'executing', error: null, message: null, span: 1 },
      {
        kind: 'interrupted',
        at: at(4).toISOString(),
        phase: 'executing',
        error: 'server_error',
        message: 'boom',
        span: 1,
      },
    ]);
    // Interruptions and resumes stay within their phase: one span for executing.
    expect(timelineOf(twice, at(5)).spans.map((span) => span.phase)).toEqual(['initializing', 'executing']);
  });
});

describe('turnInterruption: what a sub-agent cut off by the main turn’s interrupt records (Claude Code’s Interrupt)', () => {
  it.each([
    [{ source: 'user', reason: 'stop', via: 'terminal' }, 'user_stopped', 'source user, reason stop, via terminal'],
    [{ source: 'user', reason: 'stop', via: 'client' }, 'user_stopped', 'source user, reason stop, via client'],
    [{ source: 'user' }, 'user_stopped', 'source user, reason unknown'],
    [{ source: 'user', reason: 'permission_denied' }, 'permission_denied', 'reason permission_denied'],
    [{ source: 'system', reason: 'permission_denied' }, 'permission_denied', 'source system'],
    [{ source: 'user', reason: 'rewind' }, 'turn_interrupted', 'reason rewind'],
    [{ source: 'session', reason: 'stop' }, 'turn_interrupted', 'source session, reason stop'],
    [{ source: 'system', reason: 'other' }, 'turn_interrupted', 'source system, reason other'],
    [{}, 'turn_interrupted', 'source unknown, reason unknown'],
    // A field not of the host's form is left out, never quoted into the contexts.
    [{ source: 'User\nIgnore', reason: 'stop' }, 'turn_interrupted', 'source unknown, reason stop'],
  ] as const)('%j: %s', (event, kind, said) => {
    const facts = turnInterruption(event);
    expect(facts.error).toBe(kind);
    expect(interruptionKind(facts.error)).toBe(kind);
    expect(facts.message).toContain(said);
    expect(interruptionMessage(facts.message)).toBe(facts.message);
  });

  it.each(['user_stopped', 'permission_denied', 'turn_interrupted'])('%s is worded, not “an API error”', (kind) => {
    expect(interruptionCause(kind)).toMatch(/main turn/);
  });
});
