// A scripted OpenAI Responses API on 127.0.0.1 for the real-Codex test: it records every request and answers each
// `POST /v1/responses` with what `script` decides, streamed as server-sent events (what Codex asks for), or with an
// API error. Codex reaches it as a custom model provider (`base_url`, `wire_api = "responses"`).
import { startRecordingServer, jsonBody } from './server-requests';

/** One output item of a scripted reply: a message, or a call of one of the tools Codex offered. */
export type OutputItem =
  | { readonly type: 'message'; readonly text: string }
  | {
      readonly type: 'function_call';
      readonly name: string;
      /** Codex's sub-agent tools live in a namespace (`multi_agent_v1`); its shell tool (`exec_command`) in none. */
      readonly namespace?: string;
      readonly arguments: Readonly<Record<string, unknown>>;
    };

/** A scripted reply: its items, or an API error (HTTP `status` with a Responses-style error body). */
export type ResponsesReply =
  | { readonly items: readonly OutputItem[] }
  | { readonly error: { readonly status: number; readonly type: string; readonly message: string } };

/** The parts of a Responses request the scripts read. */
export interface ResponsesBody {
  readonly model?: string;
  readonly input?: readonly Record<string, unknown>[];
  readonly tools?: readonly Record<string, unknown>[];
}

/** A request the server received, with who the script said asked and what it answered. */
export interface ResponsesRequest {
  readonly run: string;
  readonly path: string;
  readonly body: ResponsesBody | undefined;
  role?: string;
  reply?: ResponsesReply;
}

/** Decides the reply of one request and names who asked (`main`, `subagent`). */
export type ResponsesScript = (
  body: ResponsesBody,
  request: ResponsesRequest,
) => { readonly role: string; readonly reply: ResponsesReply };

export interface ResponsesServer {
  /** The provider's `base_url` (`…/v1`). */
  readonly baseUrl: string;
  readonly requests: ResponsesRequest[];
  /** Labels the requests that arrive from now on (one label per `codex exec` run). */
  setRun(label: string): void;
  close(): Promise<void>;
}

/** Starts the server on a random port of 127.0.0.1. */
export async function startResponsesServer(script: ResponsesScript): Promise<ResponsesServer> {
  let ids = 0;
  const server = await startRecordingServer<ResponsesRequest>({
    record: ({ run, path, raw }) => ({
      run,
      path,
      // Not JSON: recorded without a body; a /responses request without one is refused below.
      body: jsonBody(raw, undefined) as ResponsesBody | undefined,
    }),
    answer: (record, { method, path }, res) => {
      const { body } = record;
      if (method !== 'POST' || !path.endsWith('/responses') || body === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'not_found', message: `no scripted answer for ${path}` } }));
        return;
      }
      const { role, reply } = script(body, record);
      record.role = role;
      record.reply = reply;
      const n = ++ids;
      if ('error' in reply) {
        res.writeHead(reply.error.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: reply.error.type, message: reply.error.message, code: null } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (event: Record<string, unknown>): void => {
        res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const id = `resp_${n}`;
      send({ type: 'response.created', response: { id } });
      reply.items.forEach((item, index) => send({ type: 'response.output_item.done', item: wire(item, n, index) }));
      send({
        type: 'response.completed',
        response: { id, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
      });
      res.end();
    },
  });
  return {
    baseUrl: `${server.origin}/v1`,
    requests: server.requests,
    setRun: server.setRun,
    close: server.close,
  };
}

/** Every text of a request's input (messages' texts, tool outputs), joined: what the model would read. */
export function inputText(body: ResponsesBody): string {
  const parts: string[] = [];
  for (const item of body.input ?? []) {
    if (typeof item.output === 'string') parts.push(item.output);
    if (Array.isArray(item.content))
      for (const piece of item.content as Record<string, unknown>[])
        if (typeof piece.text === 'string') parts.push(piece.text);
  }
  return parts.join('\n');
}

/** The calls a request's input already holds (the model's earlier turns), by name. */
export function calledTools(body: ResponsesBody): string[] {
  return (body.input ?? []).filter((item) => item.type === 'function_call').map((item) => String(item.name));
}

/** The outputs of the tool calls in a request's input, in order. */
export function toolOutputs(body: ResponsesBody): string[] {
  return (body.input ?? [])
    .filter((item) => item.type === 'function_call_output')
    .map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)));
}

function wire(item: OutputItem, n: number, index: number): Record<string, unknown> {
  if (item.type === 'message')
    return {
      type: 'message',
      role: 'assistant',
      id: `msg_${n}_${index}`,
      content: [{ type: 'output_text', text: item.text }],
    };
  return {
    type: 'function_call',
    id: `fc_${n}_${index}`,
    call_id: `call_${n}_${index}`,
    name: item.name,
    ...(item.namespace === undefined ? {} : { namespace: item.namespace }),
    arguments: JSON.stringify(item.arguments),
  };
}
