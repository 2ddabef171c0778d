// A scripted Anthropic Messages API on 127.0.0.1 for the real-host test: it records every request and answers
// each `POST /v1/messages` with what `script` decides, streamed as SSE when the request asks for it.
import type { ServerResponse } from 'node:http';
import { stringsIn } from './claude-host';
import { jsonBody, startRecordingServer } from './server-requests';

/** One content block of a scripted reply. */
export type ReplyBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly name: string; readonly input: Readonly<Record<string, unknown>> };

/**
 * A scripted reply: its blocks; the stop reason follows from them (tool_use when any block is one). With `error`, the
 * request is answered with that API error instead (HTTP `status`, `{type: "error", error: {type, message}}`), as the
 * real API answers a refused request, a rate limit (429) or an overload (529): the blocks are not sent.
 */
export interface Reply {
  readonly blocks: readonly ReplyBlock[];
  readonly error?: { readonly status: number; readonly type: string; readonly message: string };
  /** Milliseconds to wait before answering: a real model takes seconds to write its reply. */
  readonly delayMs?: number;
}

/** A request the server received: its path, the label of the run it belongs to, and its parsed body. */
export interface RecordedRequest {
  readonly run: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  /** Who `script` decided had asked (e.g. `main`, `subagent`, `other`), for the assertions and the transcript. */
  role?: string;
  reply?: Reply;
}

/** Decides the reply of one `/v1/messages` request and names who asked. */
export type Script = (body: MessagesBody, request: RecordedRequest) => { readonly role: string; readonly reply: Reply };

/** The parts of a Messages API request body the scripts read. */
export interface MessagesBody {
  readonly model?: string;
  readonly stream?: boolean;
  readonly system?: unknown;
  readonly tools?: readonly { readonly name?: string }[];
  readonly messages?: readonly { readonly role: string; readonly content: unknown }[];
}

export interface ModelServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Labels the requests that arrive from now on (one label per `claude -p` run). */
  setRun(label: string): void;
  close(): Promise<void>;
}

/** Starts the server on a random port of 127.0.0.1. */
export async function startModelServer(script: Script): Promise<ModelServer> {
  let ids = 0;
  const server = await startRecordingServer<RecordedRequest>({
    record: ({ run, method, path, raw }) => ({
      run,
      method,
      path,
      // Not JSON: kept as text in the record; only /v1/messages needs a parsed body and says so below.
      body: jsonBody(raw, raw),
    }),
    answer: (record, { method }, res, later) => answer(method, res, record, script, () => `${++ids}`, later),
  });
  return { url: server.origin, requests: server.requests, setRun: server.setRun, close: server.close };
}

function answer(
  method: string,
  res: ServerResponse,
  record: RecordedRequest,
  script: Script,
  nextId: () => string,
  later: (ms: number, send: () => void) => void,
): void {
  if (method === 'POST' && record.path === '/v1/messages') {
    if (typeof record.body !== 'object' || record.body === null)
      return json(res, 400, apiError('invalid_request_error', 'body is not JSON'));
    const body = record.body as MessagesBody;
    const { role, reply } = script(body, record);
    record.role = role;
    record.reply = reply;
    const id = nextId();
    const send = (): void => {
      if (reply.error !== undefined)
        return json(res, reply.error.status, apiError(reply.error.type, reply.error.message));
      return body.stream === true
        ? stream(res, reply, body.model ?? 'claude-test', id)
        : json(res, 200, message(reply, body.model ?? 'claude-test', id));
    };
    if (reply.delayMs === undefined) return send();
    return later(reply.delayMs, send);
  }
  if (method === 'POST' && record.path === '/v1/messages/count_tokens') {
    return json(res, 200, { input_tokens: Math.ceil(JSON.stringify(record.body ?? '').length / 4) });
  }
  if (method === 'GET' && record.path.startsWith('/v1/models'))
    return json(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
  return json(res, 404, apiError('not_found_error', `no route ${method} ${record.path}`));
}

/** Names of the tools the assistant already called in a conversation. */
export function calledTools(body: MessagesBody): string[] {
  return (body.messages ?? [])
    .filter((m) => m.role === 'assistant' && Array.isArray(m.content))
    .flatMap((m) =>
      (m.content as { type?: string; name?: string }[]).filter((b) => b.type === 'tool_use').map((b) => String(b.name)),
    );
}

/** The tool results of a conversation, in order: their text and whether Claude Code marked them as errors. */
export function toolResults(body: MessagesBody): { text: string; isError: boolean }[] {
  return (body.messages ?? [])
    .filter((m) => m.role === 'user' && Array.isArray(m.content))
    .flatMap((m) =>
      (m.content as { type?: string; content?: unknown; is_error?: boolean }[]).filter((b) => b.type === 'tool_result'),
    )
    .map((b) => ({ text: stringsIn(b.content).join(' '), isError: b.is_error === true }));
}

// --- internal ---

function apiError(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test' });
  res.end(JSON.stringify(value));
}

const USAGE = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function stopReason(reply: Reply): string {
  return reply.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

function contentOf(reply: Reply, id: string): Record<string, unknown>[] {
  return reply.blocks.map((block, i) =>
    block.type === 'text'
      ? { type: 'text', text: block.text }
      : { type: 'tool_use', id: `toolu_test_${id}_${i}`, name: block.name, input: block.input },
  );
}

function message(reply: Reply, model: string, id: string): unknown {
  return {
    id: `msg_test_${id}`,
    type: 'message',
    role: 'assistant',
    model,
    content: contentOf(reply, id),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: USAGE,
  };
}

/** The reply as the SSE events of a streamed message, each block sent as a start, one delta and a stop. */
function stream(res: ServerResponse, reply: Reply, model: string, id: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_test' });
  const send = (event: string, data: unknown): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  send('message_start', {
    type: 'message_start',
    message: {
      id: `msg_test_${id}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...USAGE, output_tokens: 1 },
    },
  });
  contentOf(reply, id).forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else {
      send('content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } });
      send('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason(reply), stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  send('message_stop', { type: 'message_stop' });
  res.end();
}
