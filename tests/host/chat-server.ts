// A scripted OpenAI-compatible chat-completions API on 127.0.0.1 for the real-opencode test: it records every request
// and answers each `POST /v1/chat/completions` with what `script` decides from the request body (and the headers
// opencode adds), streamed as server-sent events when the request asks for it (opencode always does), or with an HTTP
// error. opencode reaches it as a custom provider (`@ai-sdk/openai-compatible`, `options.baseURL`).
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { jsonBody, startRecordingServer } from './server-requests';

/** One tool call of a scripted reply: the tool's name and its arguments (sent as a JSON string, as the API does). */
export interface ChatToolCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * A scripted reply: a text, tool calls, or both (the finish reason follows: `tool_calls` when any); or an HTTP error
 * (`status`, an OpenAI-style `{error: {message, type, code}}` body and extra headers such as `retry-after`).
 */
export type ChatReply =
  | {
      readonly text?: string;
      readonly toolCalls?: readonly ChatToolCall[];
      /** Milliseconds to wait before answering: a real model takes time, and a play may need it to. */
      readonly delayMs?: number;
    }
  | {
      readonly error: {
        readonly status: number;
        readonly message: string;
        readonly type?: string;
        readonly headers?: Readonly<Record<string, string>>;
      };
    };

/** A message of a chat-completions request; `content` is a text or a list of parts (`{type: 'text', text}`). */
export interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly {
    readonly id?: string;
    readonly function?: { readonly name?: string; readonly arguments?: string };
  }[];
  readonly tool_call_id?: string;
}

/** The parts of a chat-completions request the scripts read. */
export interface ChatBody {
  readonly model?: string;
  readonly stream?: boolean;
  readonly messages?: readonly ChatMessage[];
  readonly tools?: readonly { readonly function?: { readonly name?: string } }[];
}

/** A request the server received, with who the script said asked and what it answered. */
export interface ChatRequest {
  readonly run: string;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: ChatBody | undefined;
  role?: string;
  reply?: ChatReply;
}

/** Decides the reply of one request and names who asked (`main`, `subagent`, `title`, …). */
export type ChatScript = (body: ChatBody, request: ChatRequest) => { readonly role: string; readonly reply: ChatReply };

export interface ChatServer {
  /** The provider's `baseURL` (`http://127.0.0.1:<port>/v1`). */
  readonly baseUrl: string;
  readonly requests: ChatRequest[];
  /** Labels the requests that arrive from now on (one label per `opencode run`). */
  setRun(label: string): void;
  close(): Promise<void>;
}

/** Starts the server on a random port of 127.0.0.1. */
export async function startChatServer(script: ChatScript): Promise<ChatServer> {
  let ids = 0;
  const server = await startRecordingServer<ChatRequest>({
    record: ({ run, method, path, headers, raw }) => ({
      run,
      method,
      path,
      headers,
      // Not JSON: recorded without a body; a completions request without one is refused below.
      body: jsonBody(raw, undefined) as ChatBody | undefined,
    }),
    answer: (record, { method, path }, res, later) => {
      const { body } = record;
      if (method !== 'POST' || !path.endsWith('/chat/completions') || body === undefined)
        return json(res, 404, {
          error: { message: `no scripted answer for ${method} ${path}`, type: 'not_found' },
        });
      const { role, reply } = script(body, record);
      record.role = role;
      record.reply = reply;
      const id = `chatcmpl-${++ids}`;
      const send = (): void => {
        if ('error' in reply) {
          const { status, message, type = 'scripted_error', headers = {} } = reply.error;
          return json(res, status, { error: { message, type, code: null } }, headers);
        }
        if (body.stream === true) return stream(res, reply, body.model ?? 'scripted', id);
        return json(res, 200, completion(reply, body.model ?? 'scripted', id));
      };
      if ('error' in reply || reply.delayMs === undefined) return send();
      later(reply.delayMs, send);
    },
  });
  return {
    baseUrl: `${server.origin}/v1`,
    requests: server.requests,
    setRun: server.setRun,
    close: server.close,
  };
}

/** The text of a message's content: a string, or its text parts, a line each. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('\n');
}

/** The request's system prompt (every system message, joined). */
export function systemText(body: ChatBody): string {
  return (body.messages ?? [])
    .filter((m) => m.role === 'system')
    .map((m) => contentText(m.content))
    .join('\n');
}

/** The texts of the request's user messages, in order. */
export function userTexts(body: ChatBody): string[] {
  return (body.messages ?? []).filter((m) => m.role === 'user').map((m) => contentText(m.content));
}

/** The tool calls the conversation already holds (the model's earlier turns), with their parsed arguments. */
export function calledTools(body: ChatBody): { name: string; arguments: Record<string, unknown> }[] {
  return (body.messages ?? []).flatMap((m) =>
    (m.tool_calls ?? []).map((call) => {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(call.function?.arguments ?? '{}') as Record<string, unknown>;
      } catch {
        // Arguments that are not JSON: the call is kept, with none.
      }
      return { name: String(call.function?.name), arguments: args };
    }),
  );
}

/** The results of the conversation's tool calls (its `tool` messages), in order. */
export function toolResults(body: ChatBody): string[] {
  return (body.messages ?? []).filter((m) => m.role === 'tool').map((m) => contentText(m.content));
}

/** The names of the tools the request offers the model. */
export function offeredTools(body: ChatBody): string[] {
  return (body.tools ?? []).map((t) => String(t.function?.name));
}

// --- internal ---

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

type Answer = Extract<ChatReply, { text?: string }>;

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

function finishReason(reply: Answer): string {
  return (reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop';
}

function wireCalls(reply: Answer, id: string): Record<string, unknown>[] {
  return (reply.toolCalls ?? []).map((call, index) => ({
    index,
    id: `call_${id.replace(/\D/g, '')}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

function completion(reply: Answer, model: string, id: string): unknown {
  const calls = wireCalls(reply, id).map(({ index: _index, ...call }) => call);
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
        finish_reason: finishReason(reply),
      },
    ],
    usage: USAGE,
  };
}

/** The reply as chat-completion chunks: the text in one delta, each tool call in one, then the finish and usage. */
function stream(res: ServerResponse, reply: Answer, model: string, id: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}): void => {
    const data = {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    };
    res.write(`data: ${JSON.stringify({ ...data, ...extra })}\n\n`);
  };
  if (reply.text !== undefined) chunk({ role: 'assistant', content: reply.text }, null);
  for (const call of wireCalls(reply, id)) chunk({ role: 'assistant', tool_calls: [call] }, null);
  chunk({}, finishReason(reply), { usage: USAGE });
  res.write('data: [DONE]\n\n');
  res.end();
}
