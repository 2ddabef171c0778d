import { SessionError } from './errors';
import { INTERRUPTION_KIND_PATTERN } from './interruption-kinds';
import { isFinalPhase, type WorkPhase } from './phase-names';
import { versionFor, type Interruption, type ResumedFrom, type SessionState } from './state';
import { cutText } from './text';

export { INTERRUPTION_KIND_PATTERN, INTERRUPTION_KINDS } from './interruption-kinds';

/** Characters of the host's failure message a session keeps: enough to say what happened, never a transcript. */
export const INTERRUPTION_MESSAGE_LIMIT = 300;

/** The kind of a foreground sub-agent cut off when the user stopped the main turn (Esc, Ctrl+C: Interrupt `stop`). */
export const USER_STOPPED = 'user_stopped';
/** The kind of one cut off when a denied permission request ended the main turn (Interrupt `permission_denied`). */
export const PERMISSION_DENIED = 'permission_denied';
/** The kind of one cut off by any other interrupt of the main turn (another session, a rewind, the host itself). */
export const TURN_INTERRUPTED = 'turn_interrupted';

/**
 * The kind of a sub-agent whose Claude Code process ended before it finished (killed, closed), found unfinished when
 * that session is resumed (Claude Code 2.1.335+ closes it then: task notification `reason: "unfinished_at_resume"`).
 * Under the unattended retry watchdog, a sub-agent that slept through a usage limit in a process that is gone is one.
 */
export const UNFINISHED_AT_RESUME = 'unfinished_at_resume';

/** The message of an agent found unfinished at resume (what Claude Code's own notification says of it). */
export const UNFINISHED_AT_RESUME_MESSAGE =
  "Claude Code closed it when its session was resumed: it didn't finish before the previous session ended";

/** What Claude Code's Interrupt event (2.1.335+) says of the interrupt that ended the main conversation's turn. */
export interface TurnInterrupt {
  /** Who stopped it: `user`, `session` (another session's Claude), `system` (a hook, a plugin, a permission check). */
  readonly source?: string;
  /** What ended it: `stop`, `permission_denied`, `rewind`, `other`. */
  readonly reason?: string;
  /** How it arrived, where known: `terminal`, `client`. */
  readonly via?: string;
}

/**
 * The interruption a foreground sub-agent cut off by the main turn's interrupt records: `permission_denied` for a
 * denied permission request (whoever denied it), `user_stopped` for the user's stop, `turn_interrupted` for anything
 * else; the message says what Claude Code reported, each field as a word of its form or left out.
 */
export function turnInterruption(event: TurnInterrupt): { readonly error: string; readonly message: string } {
  const word = (value: string | undefined): string | undefined =>
    value !== undefined && INTERRUPTION_KIND_PATTERN.test(value) ? value : undefined;
  const source = word(event.source);
  const reason = word(event.reason);
  const via = word(event.via);
  const error =
    reason === 'permission_denied'
      ? PERMISSION_DENIED
      : source === 'user' && (reason === 'stop' || reason === undefined)
        ? USER_STOPPED
        : TURN_INTERRUPTED;
  const said = [
    `source ${source ?? 'unknown'}`,
    `reason ${reason ?? 'unknown'}`,
    ...(via === undefined ? [] : [`via ${via}`]),
  ];
  return { error, message: `Interrupt ended the main turn (${said.join(', ')})` };
}

/** What a host says about an agent that died of its failure (Claude Code's StopFailure, the seed protocol's field). */
export interface InterruptionFacts {
  /** The host's failure kind (`rate_limit`, `server_error`, `unknown`, …): see interruptionKind. */
  readonly error: string;
  /** The host's message as it came (cleaned and cut here, see interruptionMessage). */
  readonly message?: string;
  /** The Claude Code agent that died (absent in the seed protocol). */
  readonly agent_id?: string;
}

/** The kind as stored: a word of the host's form (`rate_limit`), anything else (or nothing) `unknown`. */
export function interruptionKind(value: unknown): string {
  return typeof value === 'string' && INTERRUPTION_KIND_PATTERN.test(value) ? value : 'unknown';
}

// What looks like a credential in an error text, each replaced whole before the text is cut: an `Authorization:`
// header's value (scheme and credentials: `Basic dXNl…`), a bearer token, a URL's password (`scheme://user:…@host`),
// a private key block, keys of a known form (`sk-…`, `sk_live_…`, GitHub's `ghp_…`/`github_pat_…`, Slack's `xox…-`,
// AWS `AKIA…`/`ASIA…`, Google `AIza…`, npm `npm_…`, a JWT `eyJ….eyJ…`), the value of a key-like name (`api_key=…`,
// `"x-api-key": "…"`, `AWS_SECRET_ACCESS_KEY: …`, `GITHUB_TOKEN=…`, `password=…`; `max_tokens: 4096` is no key),
// an AWS secret's 40 characters, and any long run of key characters (a secret of another form; request ids and words
// are shorter). Every repetition that may start at many places is bounded: a hostile message of a megabyte is masked
// in linear time. Tested as a table in tests/unit/core/interruption.test.ts.
// The last word of a key-like name (`AWS_SECRET_ACCESS_KEY` ends in `access_key`): matched where it ends, the name's
// other words left as they are, so no pattern tries every word start of the text.
const KEY_NAME =
  '(?:api[_-]?key|access[_-]?key(?:[_-]?id)?|secret(?:[_-]?key)?|private[_-]?key|password|passwd|passphrase|' +
  'credentials?|token|auth)';
const SECRETS: readonly (readonly [RegExp, string])[] = [
  [
    /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----(?:(?!-----END).){0,8000}(?:-----END [A-Z ]{0,40}PRIVATE KEY-----)?/g,
    '[masked]',
  ],
  [
    /\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)(?:(?:Basic|Bearer|Digest|Token|Bot|Negotiate|NTLM|AWS4-HMAC-SHA256)\s+)?[^\s"',;]+/gi,
    '$1$2[masked]',
  ],
  [/\bBearer\s+(?!\[masked\])[^\s"',;]+/gi, 'Bearer [masked]'],
  [/(?<=[A-Za-z0-9])(:\/\/[^\s:/@"'<>]{0,200}:)[^\s@/"'<>]{1,200}@/g, '$1[masked]@'],
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{6,}/g, '$1-[masked]'],
  [/\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]{6,}/g, '$1_$2_[masked]'],
  [/\b(gh[pousr]_|github_pat_)[A-Za-z0-9_]{16,}/g, '$1[masked]'],
  [/\b(xox[abposr]|xapp)-[A-Za-z0-9-]{8,}/g, '$1-[masked]'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{12,}\b/g, '[masked]'],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, '[masked]'],
  [/\bnpm_[A-Za-z0-9]{30,}/g, '[masked]'],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?/g, '[masked]'],
  [new RegExp(`(${KEY_NAME})\\b(["']?\\s*[:=]\\s*["']?)(?!\\[masked)[^\\s"',;]+`, 'gi'), '$1$2[masked]'],
  [
    /(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]*\d)(?=[A-Za-z0-9/+]*[a-z])(?=[A-Za-z0-9/+]*[A-Z])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    '[masked]',
  ],
  [/(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{40,}/g, '[masked]'],
];

/**
 * The host's failure message as a session keeps it: whitespace runs as one space, anything that looks like a key
 * masked, cut to INTERRUPTION_MESSAGE_LIMIT characters; undefined for no text.
 */
export function interruptionMessage(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  let clean = text.replace(/\s+/g, ' ').trim();
  for (const [pattern, replacement] of SECRETS) clean = clean.replace(pattern, replacement);
  if (clean === '') return undefined;
  return cutText(clean, INTERRUPTION_MESSAGE_LIMIT);
}

/** True while a session waits after an interruption: not final, interrupted, and no delegation has picked it up. */
export function isInterrupted(state: Pick<SessionState, 'phase' | 'interruption'>): boolean {
  return !isFinalPhase(state.phase) && state.interruption?.waiting === true;
}

/**
 * Records that the session's agent died of a host failure: the session stays open in its phase and waits for the next
 * delegation (it is not finished, whatever its phase), `count` goes up by one (never `error_count`: the error limit is
 * about the agent's own errors), and an `interrupted` history entry keeps the moment. A session already waiting after
 * an interruption is returned unchanged: two reports of one failure (parallel hooks, a host that sends it twice)
 * record one interruption.
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is final (an ended session is not interrupted)
 */
export function withInterruption(state: SessionState, facts: InterruptionFacts, now: Date): SessionState {
  if (isFinalPhase(state.phase)) {
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Session \`${state.agent_id}\` is final (\`${state.phase}\`) and cannot be interrupted`,
    );
  }
  if (isInterrupted(state)) return state;
  const at = now.toISOString();
  const message = interruptionMessage(facts.message);
  const interruption: Interruption = {
    count: (state.interruption?.count ?? 0) + 1,
    carried_on: state.interruption?.carried_on ?? 0,
    waiting: true,
    at,
    error: interruptionKind(facts.error),
    ...(message === undefined ? {} : { message }),
    phase: state.phase as WorkPhase,
    ...(facts.agent_id === undefined ? {} : { agent_id: facts.agent_id }),
  };
  const next: SessionState = {
    ...state,
    last_updated: at,
    history: [
      ...state.history,
      { from_phase: state.phase, to_phase: state.phase, timestamp: at, event: 'interrupted' },
    ],
    interruption,
  };
  return { ...next, schema_version: versionFor(next) };
}

/**
 * The session as a delegation that picks it up leaves it: no longer waiting, one more interruption carried on. A
 * session that is not waiting is returned as it is. (history.ts `withResume` applies it with the resume entry.)
 */
export function carriedOn(state: SessionState): SessionState {
  const interruption = state.interruption;
  if (interruption === undefined || !interruption.waiting) return state;
  return { ...state, interruption: { ...interruption, waiting: false, carried_on: interruption.carried_on + 1 } };
}

/** What a resume records of the interruption it carries on from (ClaudeLink `resumed_from.interruption`). */
export function interruptionOf(state: SessionState): NonNullable<ResumedFrom['interruption']> | undefined {
  const interruption = state.interruption;
  if (interruption === undefined || !isInterrupted(state)) return undefined;
  const { at, error, message } = interruption;
  return { at, error, ...(message === undefined ? {} : { message }) };
}

/**
 * The failure in words, for the hooks' contexts and `show`: `a rate or usage limit (rate_limit)`. The kind is one word
 * of letters, digits and `_` (the schema's pattern), so it is shown as it is.
 */
export function interruptionCause(kind: string): string {
  return `${CAUSES.get(kind) ?? 'an API error'} (${kind})`;
}

// A Map: a kind such as `constructor` is a word like any other, never a property of an object's prototype.
const CAUSES: ReadonlyMap<string, string> = new Map([
  ['rate_limit', 'a rate or usage limit'],
  ['overloaded', 'an overloaded API'],
  ['server_error', 'an API server error'],
  ['authentication_failed', 'an authentication failure'],
  ['oauth_org_not_allowed', 'an account or credential problem'],
  ['account_on_hold', 'an account or credential problem'],
  ['verification_required', 'an account or credential problem'],
  ['billing_error', 'a billing problem'],
  ['cloud_credential_error', 'an account or credential problem'],
  ['max_output_tokens', 'the output token limit'],
  // Not Claude Code's: the Agent SDK's app stopped its query while the sub-agent ran (src/hooks/sdk/agent-sdk.ts).
  ['app_stopped', 'the app stopping its query'],
  // Not Claude Code's: opencode's run was stopped (Ctrl-C, a killed process) while the sub-agent ran, which fires
  // nothing; the next delegation finds it (src/hooks/hosts/opencode-plugin.ts).
  ['run_stopped', 'its host run being stopped while it worked'],
  // Not a failure: Claude Code's Interrupt ended the main turn and cut off the foreground sub-agent (turnInterruption).
  [USER_STOPPED, 'the user stopping the main turn'],
  [PERMISSION_DENIED, 'a denied permission request ending the main turn'],
  [TURN_INTERRUPTED, 'an interrupt ending the main turn'],
  [UNFINISHED_AT_RESUME, 'its Claude Code session ending before it finished'],
]);
