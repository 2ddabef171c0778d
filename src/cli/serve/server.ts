import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { isSessionError, SessionError } from '../../core/errors';
import { parseRejectTarget } from '../../core/decision';
import type { SessionState } from '../../core/state';
import { decisionSubject, liveModel, sessionDetail } from '../../core/views/live';
import { LIVE_CSP, LIVE_CSS, LIVE_SCRIPT, livePage } from '../../core/views/live-page';
import type { Sessions } from '../../service/sessions';
import { API_PREFIX, judgeRequest, type Launch } from './guard';

/** Bytes of a request body the server reads at most (an approve or reject is a few hundred). */
const BODY_LIMIT = 64 * 1024;

/** What the server serves: the sessions of one store, this project's or (allProjects) every project's. */
export interface ServeOptions {
  readonly sessions: Sessions;
  readonly allProjects: boolean;
  /** 0: a free port the system picks. */
  readonly port: number;
  /** A line for the server's log (stderr): a refused request, a failure, a decision. */
  readonly log: (line: string) => void;
  /** Who a decision on the page is recorded as (core/decision.ts recordedAsText), said beside its buttons. */
  readonly recordedAs: string;
}

/** A running server: its address, its launch's secrets, and how to stop it. */
export interface RunningServer {
  readonly url: string;
  readonly launch: Launch;
  readonly server: Server;
  /** Stops listening, ends open connections, frees the port. */
  close(): Promise<void>;
}

/**
 * Starts the page's server on 127.0.0.1 (never another interface): a token made for this launch (in the printed
 * URL's fragment: see guard.ts), every request judged by the guard before anything is read, no CORS header on any
 * answer, a strict Content-Security-Policy on all.
 * @throws SessionError E_USAGE when the port is taken or not allowed
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const secrets = { token: randomBytes(24).toString('base64url') };
  let launch: Launch = { ...secrets, port: options.port };
  const server = createServer((request, response) => {
    handle(request, response, launch, options).catch((error: unknown) => {
      options.log(`failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) answerJson(response, 500, { error: 'E_INTERNAL', message: 'internal error' });
      else response.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new SessionError(
          'E_USAGE',
          `Expected \`--port\` to be a free port on 127.0.0.1, got ${options.port} (${error.code ?? error.message})`,
        ),
      ),
    );
    server.listen({ host: '127.0.0.1', port: options.port, exclusive: true }, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  launch = { ...secrets, port };
  return {
    url: `http://127.0.0.1:${port}/#token=${launch.token}`,
    launch,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// --- internal ---

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  launch: Launch,
  options: ServeOptions,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const verdict = judgeRequest(
    {
      method: request.method ?? 'GET',
      path: url.pathname,
      host: request.headers.host,
      authorization: request.headers.authorization,
      origin: request.headers.origin,
      contentType: request.headers['content-type'],
    },
    launch,
  );
  if (verdict.kind === 'refuse') {
    options.log(`refused ${request.method ?? '?'} ${url.pathname}: ${verdict.code}`);
    request.resume();
    answerJson(response, verdict.status, { error: verdict.code, message: REFUSALS[verdict.code] });
    return;
  }
  const route = `${request.method === 'HEAD' ? 'GET' : request.method} ${url.pathname}`;
  switch (route) {
    case 'GET /':
      return answerText(response, 200, 'text/html; charset=utf-8', livePage());
    case 'GET /app.js':
      return answerText(response, 200, 'text/javascript; charset=utf-8', LIVE_SCRIPT);
    case 'GET /app.css':
      return answerText(response, 200, 'text/css; charset=utf-8', LIVE_CSS);
    case 'GET /favicon.ico':
      // The browser asks for it unbidden; no icon, and no 404 in its console.
      baseHeaders(response);
      response.writeHead(204);
      response.end();
      return;
    case 'GET /api/state':
      return answerState(request, response, options);
    case 'POST /api/approve':
    case 'POST /api/reject':
      return decide(request, response, url.pathname === '/api/approve' ? 'approve' : 'reject', options);
    default:
      if (route.startsWith(`GET ${API_PREFIX}session/`))
        return answerDetail(response, decodeURIComponent(url.pathname.slice(`${API_PREFIX}session/`.length)), options);
      return answerJson(response, 404, { error: 'E_NOT_FOUND', message: 'no such page' });
  }
}

/** What each refusal tells the client: the page shows its own words for a missing token (how to get in). */
const REFUSALS: Readonly<Record<string, string>> = {
  E_HOST: 'refused: this server answers only to 127.0.0.1 and localhost on its own port',
  E_TOKEN: 'refused: open the URL `agent-session serve` printed (its #token=…) in this browser once',
  E_ORIGIN: 'refused: a change comes only from the page itself',
  E_METHOD: 'refused: no such method here',
  E_CONTENT_TYPE: 'refused: a change is JSON',
};

/** A digest no agent can make collide: the fingerprint of what a decision allows (core/views/live.ts). */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * The model, with the store's time in a header (the page counts waits from it) and an ETag of the body: an unchanged
 * store answers 304 with no body, however often the page asks.
 */
async function answerState(request: IncomingMessage, response: ServerResponse, options: ServeOptions): Promise<void> {
  const { sessions, allProjects } = options;
  const entries = await sessions.list({ allProjects });
  const states = entries.flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
  const now = await sessions.now();
  const body = JSON.stringify(
    liveModel({
      states,
      now,
      limits: sessions.limits,
      project: allProjects ? null : sessions.project,
      corrupt: entries.length - states.length,
      recordedAs: options.recordedAs,
      digest,
    }),
  );
  const etag = `"${digest(body)}"`;
  response.setHeader('etag', etag);
  response.setHeader('x-agent-session-now', now.toISOString());
  if (header(request, 'if-none-match') === etag) {
    baseHeaders(response);
    response.writeHead(304);
    response.end();
    return;
  }
  answerText(response, 200, 'application/json; charset=utf-8', body);
}

/** One session whole (the detail view): 404 for an unknown id, or another project's unless every project is shown. */
async function answerDetail(response: ServerResponse, id: string, options: ServeOptions): Promise<void> {
  const { sessions, allProjects } = options;
  let state: SessionState;
  try {
    state = await sessions.get(await sessions.resolveId(id));
    if (!allProjects && state.project !== sessions.project)
      throw new SessionError('E_NOT_FOUND', 'Expected a session of this project');
  } catch (error) {
    if (!isSessionError(error)) throw error;
    return answerJson(response, STATUS[error.code] ?? 500, { error: error.code, message: error.message });
  }
  const now = await sessions.now();
  response.setHeader('x-agent-session-now', now.toISOString());
  answerJson(
    response,
    200,
    sessionDetail(state, { now, limits: sessions.limits, project: allProjects ? null : sessions.project, digest }),
  );
}

async function decide(
  request: IncomingMessage,
  response: ServerResponse,
  verb: 'approve' | 'reject',
  options: ServeOptions,
): Promise<void> {
  try {
    const body = await readJson(request);
    const id = field(body, 'id', true)!;
    // What the person saw: a decision on anything else (a request replaced, a plan rewritten since) is refused.
    const subject = field(body, 'subject', true)!;
    const unchanged = (state: SessionState) => {
      if (digest(decisionSubject(state)) !== subject)
        throw new SessionError(
          'E_CHANGED',
          `Expected ${state.agent_id} to wait on what the page showed, got a change since: look at it again`,
        );
    };
    const scope = { allProjects: options.allProjects, unchanged };
    const state =
      verb === 'approve'
        ? await options.sessions.approve(id, noteOf(body), scope)
        : await options.sessions.reject(
            id,
            {
              reason: field(body, 'reason', true)!,
              ...(body['to'] === undefined ? {} : { to: parseRejectTarget(body['to']) }),
            },
            scope,
          );
    options.log(`${verb}d ${state.agent_id} from the browser: phase ${state.phase}`);
    answerJson(response, 200, { id: state.agent_id, phase: state.phase });
  } catch (error) {
    if (!isSessionError(error)) throw error;
    const status = STATUS[error.code] ?? 500;
    // Not the person's doing (a full disk, a read-only store): said in the terminal too.
    if (status >= 500) options.log(`${verb} failed: ${error.message}`);
    answerJson(response, status, { error: error.code, message: error.message });
  }
}

/** The HTTP status of a refused decision, by the error's code (the CLI's exit codes, as statuses). */
const STATUS: Readonly<Record<string, number>> = {
  E_USAGE: 400,
  E_NOT_FOUND: 404,
  E_ILLEGAL_TRANSITION: 409,
  E_OTHER_PROJECT: 409,
  E_BUSY: 503,
  // The store could not be written (full, read-only): nothing was recorded; the same decision can be sent again.
  E_IO: 503,
  E_AGENT_SHELL: 403,
  E_CHANGED: 409,
};

function noteOf(body: Record<string, unknown>): { note?: string } {
  const note = field(body, 'note', false);
  return note === undefined ? {} : { note };
}

function field(body: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = body[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string')
    throw new SessionError(
      'E_USAGE',
      `Expected \`${name}\` to be text, got ${value === undefined ? 'nothing' : typeof value}`,
    );
  return value;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new SessionError('E_USAGE', `Expected a body of at most ${BODY_LIMIT} bytes`);
    chunks.push(chunk as Buffer);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new SessionError('E_USAGE', 'Expected a JSON object as the body, got something else');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SessionError('E_USAGE', 'Expected a JSON object as the body, got something else');
  return value as Record<string, unknown>;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Headers of every answer: the policy, no sniffing, no framing, no referrer, nothing cached; never a CORS header. */
function baseHeaders(response: ServerResponse): void {
  response.setHeader('content-security-policy', LIVE_CSP);
  response.setHeader('x-content-type-options', 'nosniff');
  response.setHeader('x-frame-options', 'DENY');
  response.setHeader('referrer-policy', 'no-referrer');
  response.setHeader('cache-control', 'no-store');
  response.setHeader('cross-origin-resource-policy', 'same-origin');
  // A page of another port that opened this one keeps no handle on it.
  response.setHeader('cross-origin-opener-policy', 'same-origin');
}

function answerText(response: ServerResponse, status: number, type: string, text: string): void {
  baseHeaders(response);
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function answerJson(response: ServerResponse, status: number, value: unknown): void {
  answerText(response, status, 'application/json; charset=utf-8', JSON.stringify(value));
}
