// What the scripted model servers (model-server.ts, chat-server.ts, responses-server.ts) share: an HTTP server on
// 127.0.0.1 that reads each request whole, records it under the current run's label before answering it (so a script
// sees it among the requests), and on close drops its open connections and its delayed replies, so that a closed
// server keeps no socket or timer (and no test) alive. Each server keeps its own record shape and its own answers.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as it arrived, read whole; `run` is the label the test set when it arrived. */
export interface Arrival {
  readonly run: string;
  readonly method: string;
  /** The URL's path, without its query. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body as received, decoded as UTF-8 (`''` when none). */
  readonly raw: string;
}

/** How a server records and answers its requests. */
export interface Recording<R> {
  /** The record of a request, kept in `requests` before `answer` runs. */
  record(arrival: Arrival): R;
  /** Answers the request; `later` sends a delayed reply that closing the server cancels. */
  answer(record: R, arrival: Arrival, res: ServerResponse, later: (ms: number, send: () => void) => void): void;
}

/** A started recording server: where it listens, what it received, and its run label. */
export interface RecordingServer<R> {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly requests: R[];
  /** Labels the requests that arrive from now on (one label per host run). */
  setRun(label: string): void;
  close(): Promise<void>;
}

/** Starts a recording server on a random port of 127.0.0.1. */
export async function startRecordingServer<R>(recording: Recording<R>): Promise<RecordingServer<R>> {
  const requests: R[] = [];
  let run = '';
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, send: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, ms);
    timers.add(timer);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrival: Arrival = {
        run,
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0] ?? '/',
        headers: req.headers,
        raw: Buffer.concat(chunks).toString('utf8'),
      };
      const record = recording.record(arrival);
      requests.push(record);
      recording.answer(record, arrival, res, later);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    setRun: (label) => {
      run = label;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request body parsed as JSON: `undefined` when empty, `notJson` when it does not parse. */
export function jsonBody(raw: string, notJson: unknown): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return notJson;
  }
}
