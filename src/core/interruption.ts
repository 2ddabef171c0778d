import { SessionError } from './errors';
import { INTERRUPTION_KIND_PATTERN } from './interruption-kinds';
import { isFinalPhase, type WorkPhase } from './phase-names';
import { versionFor, type Interruption, type ResumedFrom, type SessionState } from './state';

export { INTERRUPTION_KIND_PATTERN, INTERRUPTION_KINDS } from './interruption-kinds';

/** Characters of the host's failure message a session keeps: enough to say what happened, never a transcript. */
export const INTERRUPTION_MESSAGE_LIMIT = 300;

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

// What looks like a credential in an error text: an API key (`sk-…`, AWS `AKIA…`), a bearer token, the value of a
// key-like name (`api_key=…`, `"x-api-key": "…"`, `authorization: …`), and any long run of key characters (a secret
// of another form; request ids and words are shorter). Each is replaced whole, before the text is cut.
const SECRETS: readonly (readonly [RegExp, string])[] = [
  [/\bBearer\s+[^\s"',;]+/gi, 'Bearer [masked]'],
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{6,}/g, '$1-[masked]'],
  [/\bAKIA[0-9A-Z]{12,}\b/g, '[masked]'],
  [
    /\b((?:x-)?api[_-]?key|authorization|access[_-]?token|refresh[_-]?token|token|secret|password)(["']?\s*[:=]\s*["']?)(?!\[masked\])[^\s"',;]+/gi,
    '$1$2[masked]',
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
  return clean.length <= INTERRUPTION_MESSAGE_LIMIT ? clean : `${clean.slice(0, INTERRUPTION_MESSAGE_LIMIT - 1)}…`;
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
]);
