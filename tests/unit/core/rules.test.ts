import { limitsOf, resolveConfig } from '../../../src/core/config';
import { DEFAULT_LIMITS } from '../../../src/core/limits';
import { resumeVerdict } from '../../../src/core/phases';
import { resumeBlocker, type ResumeFacts } from '../../../src/core/rules';
import { type SessionError } from '../../../src/core/errors';

const now = new Date('2026-01-08T18:30:00.000Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
const MIN = 60_000;
const base: ResumeFacts = { phase: 'approval', resume_ready: true, last_updated: at(-5 * MIN), error_count: 0 };

describe('resume rules', () => {
  it.each([
    ['fresh approval', {}, 'session_resumable'],
    ['investigating', { phase: 'investigating' }, 'session_resumable'],
    ['planning', { phase: 'planning' }, 'session_resumable'],
    ['not resume_ready', { resume_ready: false }, 'not_resume_ready'],
    ['executing', { phase: 'executing' }, 'phase_not_resumable'],
    ['initializing', { phase: 'initializing' }, 'phase_not_resumable'],
    ['exactly 30:00 idle', { last_updated: at(-30 * MIN) }, 'session_resumable'],
    ['30:00.001 idle', { last_updated: at(-30 * MIN - 1) }, 'session_expired'],
    ['31 minutes idle', { last_updated: at(-31 * MIN) }, 'session_expired'],
    ['2 errors', { error_count: 2 }, 'session_resumable'],
    ['3 errors', { error_count: 3 }, 'too_many_errors'],
    ['1 minute ahead', { last_updated: at(MIN) }, 'session_resumable'],
    ['1 minute 1 ms ahead', { last_updated: at(MIN + 1) }, 'clock_skew'],
    ['a year ahead', { last_updated: at(365 * 24 * 60 * MIN) }, 'clock_skew'],
    ['expired beats errors', { last_updated: at(-40 * MIN), error_count: 5 }, 'session_expired'],
    ['phase beats expiry', { phase: 'executing', last_updated: at(-40 * MIN) }, 'phase_not_resumable'],
    ['phase beats the ready flag', { phase: 'completed', resume_ready: false }, 'phase_not_resumable'],
    ['a flag that disagrees with its phase', { phase: 'planning', resume_ready: false }, 'not_resume_ready'],
  ] as const)('%s → %s', (_label, patch, expected) => {
    const facts = { ...base, ...patch } as ResumeFacts;
    expect(resumeVerdict(facts, now, DEFAULT_LIMITS)).toBe(expected);
    expect(resumeBlocker(facts, now, DEFAULT_LIMITS)).toBe(expected === 'session_resumable' ? null : expected);
  });

  it('uses the configured limits', () => {
    const limits = { ...DEFAULT_LIMITS, resumeTimeoutMinutes: 5, maxErrors: 1 };
    expect(resumeVerdict({ ...base, last_updated: at(-6 * MIN) }, now, limits)).toBe('session_expired');
    expect(resumeVerdict({ ...base, error_count: 1 }, now, limits)).toBe('too_many_errors');
  });
});

/** The limits an environment sets, through the settings resolver the CLI and hooks use (no config file). */
const limitsFromEnv = (env: Record<string, string>) =>
  limitsOf(resolveConfig({ path: 'none', found: false }, env).values);

describe('limits from the environment', () => {
  it('defaults to 30 minutes and 3 errors', () => {
    expect(limitsFromEnv({})).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toMatchObject({ resumeTimeoutMinutes: 30, maxErrors: 3 });
  });

  it('reads the variables', () => {
    expect(limitsFromEnv({ AGENT_SESSION_RESUME_TIMEOUT_MINUTES: '7.5', AGENT_SESSION_MAX_ERRORS: '5' })).toMatchObject(
      { resumeTimeoutMinutes: 7.5, maxErrors: 5 },
    );
  });

  it.each([
    ['AGENT_SESSION_RESUME_TIMEOUT_MINUTES', 'abc'],
    ['AGENT_SESSION_RESUME_TIMEOUT_MINUTES', '-1'],
    ['AGENT_SESSION_RESUME_TIMEOUT_MINUTES', '0'],
    ['AGENT_SESSION_MAX_ERRORS', '2.5'],
    ['AGENT_SESSION_MAX_ERRORS', 'Infinity'],
  ])('refuses %s=%s with E_USAGE', (name, value) => {
    expect(() => limitsFromEnv({ [name]: value })).toThrow(
      expect.objectContaining({ code: 'E_USAGE' }) as unknown as SessionError,
    );
  });
});
