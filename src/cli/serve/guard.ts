// The request guard of `agent-session serve` (pure: the server hands it a request's facts, it answers allow or refuse).
// Kept apart from node:http so every rule is tested as a table (tests/unit/cli/serve/guard.test.ts).
//
// Where the token lives (issue 40 item 4, redteam H3): never in a cookie, which every server on 127.0.0.1 receives
// whatever its port. The URL `serve` prints carries it in its fragment (`/#token=…`), which a browser never sends to
// any server; the page moves it into its own origin's storage (per scheme, host and port: no other port can read
// it) and sends it in the Authorization header of each data request. The page itself (its skeleton, script and
// style) holds no data and needs no token, so a link without one (a notification's) opens a page that says how to
// get in, and a browser that opened the printed URL once opens the decision.

/** The header the page sends the launch's token in: `Authorization: Bearer <token>`. */
export const TOKEN_HEADER = 'authorization';

/** The path every answer with data lies under (each needs the token); everything else is the page's own files. */
export const API_PREFIX = '/api/';

/** What one launch of the server made up and where it listens. */
export interface Launch {
  /** The access token in the printed URL's fragment, sent back by the page in TOKEN_HEADER. */
  readonly token: string;
  readonly port: number;
}

/** The facts of a request the guard judges (headers as node:http gives them, lower-case names). */
export interface RequestFacts {
  readonly method: string;
  /** The path, without the query. */
  readonly path: string;
  readonly host: string | undefined;
  /** The Authorization header, or undefined. */
  readonly authorization: string | undefined;
  readonly origin: string | undefined;
  readonly contentType: string | undefined;
}

/** Why a request is refused (stable codes; the status the server answers with). */
export type Refusal =
  | { readonly status: 421; readonly code: 'E_HOST' }
  | { readonly status: 403; readonly code: 'E_TOKEN' | 'E_ORIGIN' }
  | { readonly status: 405; readonly code: 'E_METHOD' }
  | { readonly status: 415; readonly code: 'E_CONTENT_TYPE' };

/** The guard's answer: allowed (a data request, or the page's own files), or refused. */
export type Verdict = { readonly kind: 'allow'; readonly data: boolean } | ({ readonly kind: 'refuse' } & Refusal);

/**
 * Judges a request, in this order: a Host header other than the server's own address (DNS rebinding) is refused
 * (421); the page's own files (any path outside API_PREFIX) are open to GET and HEAD, nothing else (405); a data
 * request without the launch's token in its Authorization header is refused (403: never a cookie, never the query);
 * a method other than GET, HEAD or POST (405); and a POST (the only change) unless it comes from the page's own origin
 * (403) and is JSON (415). A browser sends neither that header nor a JSON body to another origin without a preflight,
 * which no answer of ours allows: the token in a header is the anti-forgery token too.
 */
export function judgeRequest(request: RequestFacts, launch: Launch): Verdict {
  const host = request.host?.toLowerCase();
  if (host === undefined || !ownHosts(launch.port).includes(host))
    return { kind: 'refuse', status: 421, code: 'E_HOST' };
  const method = request.method.toUpperCase();
  if (!request.path.startsWith(API_PREFIX))
    return method === 'GET' || method === 'HEAD'
      ? { kind: 'allow', data: false }
      : { kind: 'refuse', status: 405, code: 'E_METHOD' };
  const given = bearerToken(request.authorization);
  if (given === null || !sameSecret(given, launch.token)) return { kind: 'refuse', status: 403, code: 'E_TOKEN' };
  if (method === 'GET' || method === 'HEAD') return { kind: 'allow', data: true };
  if (method !== 'POST') return { kind: 'refuse', status: 405, code: 'E_METHOD' };
  if (request.origin !== `http://${host}`) return { kind: 'refuse', status: 403, code: 'E_ORIGIN' };
  const type = (request.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return { kind: 'refuse', status: 415, code: 'E_CONTENT_TYPE' };
  return { kind: 'allow', data: true };
}

/** The Host headers the server answers to: its own address, by number or as localhost. */
export function ownHosts(port: number): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header?.trim() ?? '');
  return match === null ? null : match[1]!;
}

/** Whether two secrets are equal, in time independent of where they first differ (no node:crypto in a pure module). */
export function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let index = 0; index < expected.length; index++) {
    difference |= (given.charCodeAt(index % Math.max(1, given.length)) || 0) ^ expected.charCodeAt(index);
  }
  return difference === 0;
}
