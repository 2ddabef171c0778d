// The request guard of `agent-session serve` (pure: the server hands it a request's facts, it answers allow or refuse).
// Kept apart from node:http so every rule is tested as a table (tests/unit/cli/serve/guard.test.ts).

/** The start of the name of the cookie the page's first request sets (HttpOnly, SameSite=Strict; + `_<port>`). */
export const TOKEN_COOKIE = 'agent_session_token';

/** The header a change carries the page's anti-forgery token in. */
export const CSRF_HEADER = 'x-agent-session-csrf';

/** What one launch of the server made up and where it listens. */
export interface Launch {
  /** The access token in the printed URL (and the cookie). */
  readonly token: string;
  /** The anti-forgery token the page sends with every change. */
  readonly csrf: string;
  readonly port: number;
}

/** The facts of a request the guard judges (headers as node:http gives them, lower-case names). */
export interface RequestFacts {
  readonly method: string;
  /** The `token` query parameter, or null. */
  readonly queryToken: string | null;
  readonly host: string | undefined;
  readonly cookie: string | undefined;
  /** The name of this launch's cookie (one per port: cookies do not tell ports apart). */
  readonly cookieName: string;
  readonly origin: string | undefined;
  readonly csrf: string | undefined;
  readonly contentType: string | undefined;
}

/** Why a request is refused (stable codes; the status the server answers with). */
export type Refusal =
  | { readonly status: 421; readonly code: 'E_HOST' }
  | { readonly status: 403; readonly code: 'E_TOKEN' | 'E_ORIGIN' | 'E_CSRF' }
  | { readonly status: 405; readonly code: 'E_METHOD' }
  | { readonly status: 415; readonly code: 'E_CONTENT_TYPE' };

/** The guard's answer: allowed (and whether to set the cookie: the token came in the query), or refused. */
export type Verdict = { readonly kind: 'allow'; readonly setCookie: boolean } | ({ readonly kind: 'refuse' } & Refusal);

/**
 * Judges a request, in this order: a Host header other than the server's own address (DNS rebinding) is refused
 * (421); then one without the launch's token in the query or in the cookie (403); a method other than GET, HEAD or
 * POST (405); and a POST (the only change) unless it comes from the page's own origin (403), carries the anti-forgery
 * token (403) and is JSON (415: a form cannot send it, and a cross-origin fetch of it would need a preflight no
 * answer of ours allows).
 */
export function judgeRequest(request: RequestFacts, launch: Launch): Verdict {
  const host = request.host?.toLowerCase();
  if (host === undefined || !ownHosts(launch.port).includes(host))
    return { kind: 'refuse', status: 421, code: 'E_HOST' };
  const byQuery = request.queryToken !== null && sameSecret(request.queryToken, launch.token);
  const cookie = cookieValue(request.cookie, request.cookieName);
  const byCookie = cookie !== null && sameSecret(cookie, launch.token);
  if (!byQuery && !byCookie) return { kind: 'refuse', status: 403, code: 'E_TOKEN' };
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return { kind: 'allow', setCookie: byQuery };
  if (method !== 'POST') return { kind: 'refuse', status: 405, code: 'E_METHOD' };
  if (request.origin !== `http://${host}`) return { kind: 'refuse', status: 403, code: 'E_ORIGIN' };
  if (request.csrf === undefined || !sameSecret(request.csrf, launch.csrf))
    return { kind: 'refuse', status: 403, code: 'E_CSRF' };
  const type = (request.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return { kind: 'refuse', status: 415, code: 'E_CONTENT_TYPE' };
  return { kind: 'allow', setCookie: byQuery };
}

/** The Host headers the server answers to: its own address, by number or as localhost. */
export function ownHosts(port: number): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** The value of one cookie in a Cookie header, or null (the first of that name). */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** Whether two secrets are equal, in time independent of where they first differ (no node:crypto in a pure module). */
export function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let index = 0; index < expected.length; index++) {
    difference |= (given.charCodeAt(index % Math.max(1, given.length)) || 0) ^ expected.charCodeAt(index);
  }
  return difference === 0;
}
