/**
 * A client's byte stream to the relay's unix socket. Two ways, the same behaviour:
 * - `pipe`: Node's own pipe handle (`process.binding('pipe_wrap')`, the handle `net` itself wraps), read and written
 *   directly. `net` would load Node's whole stream machinery (28 modules) and run a Duplex per socket: 28.6 M
 *   instructions for a connection and five round trips, against 1.4 M this way (callgrind, Node 20), on a hook whose
 *   whole budget is 1.5 × Node's start (docs/relay.md). The binding is documented as legacy and unstable, so every
 *   piece is checked before use, and anything missing or different falls back to `net`.
 * - `net`: the public API. Used when the pipe handle is not what this code expects, under `--pending-deprecation`
 *   (which would print a warning for process.binding), or when AGENT_SESSION_RELAY_TRANSPORT=net asks for it.
 */

/** What a transport reports. */
export interface TransportEvents {
  readonly data: (chunk: Buffer) => void;
  /**
   * The stream ended: `code` is the system error (ENOENT, ECONNREFUSED…), or `EOF` when the relay closed it;
   * `connecting` when the connection was never made. Called once, never after close().
   */
  readonly end: (code: string, connecting: boolean) => void;
}

/** An open (or opening) stream: what is written before it connects is sent once it does. */
export interface Transport {
  write(text: string): void;
  close(): void;
}

/** Which transport this process uses (tests force each). */
export type TransportKind = 'pipe' | 'net';

/**
 * Connects to the unix socket `path`.
 * @param kind `net` forces the public API; `pipe` uses the pipe handle when it is as expected, else `net`
 */
export function openTransport(path: string, events: TransportEvents, kind: TransportKind = transportKind()): Transport {
  if (kind === 'pipe') {
    const binding = pipeBinding();
    if (binding !== null) return new PipeTransport(binding, path, events);
  }
  return netTransport(path, events);
}

/** The transport asked for by AGENT_SESSION_RELAY_TRANSPORT (`net` or `pipe`, the default). */
export function transportKind(env: Readonly<Record<string, string | undefined>> = process.env): TransportKind {
  return env.AGENT_SESSION_RELAY_TRANSPORT === 'net' ? 'net' : 'pipe';
}

// --- internal ---

/** The pieces of Node's stream bindings the pipe transport uses (as lib/net.js and stream_base_commons.js do). */
interface PipeBinding {
  readonly Pipe: new (type: number) => PipeHandle;
  readonly PipeConnectWrap: new () => { oncomplete?: (status: number) => void };
  readonly WriteWrap: new () => WriteRequest;
  readonly socketType: number;
  readonly state: Int32Array;
  readonly readBytes: number;
  readonly bufferOffset: number;
  readonly lastWriteAsync: number;
}

interface PipeHandle {
  onread: (buffer: ArrayBuffer) => void;
  connect(request: object, path: string): number;
  readStart(): number;
  writeUtf8String(request: WriteRequest, text: string): number;
  close(callback?: () => void): void;
}

interface WriteRequest {
  handle?: PipeHandle;
  oncomplete?: (status: number) => void;
  async?: boolean;
}

let cachedBinding: PipeBinding | null | undefined;

/** The bindings, or null when they are not there or not as expected (then `net`). */
function pipeBinding(): PipeBinding | null {
  if (cachedBinding !== undefined) return cachedBinding;
  cachedBinding = null;
  // process.binding warns under --pending-deprecation: `net` then, so a hook never writes a warning.
  if (process.execArgv.includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1')
    return cachedBinding;
  try {
    const binding = (process as unknown as { binding?: (name: string) => Record<string, unknown> }).binding;
    if (typeof binding !== 'function') return cachedBinding;
    const pipe = binding('pipe_wrap');
    const stream = binding('stream_wrap');
    const constants = pipe.constants as Record<string, unknown> | undefined;
    const state = stream.streamBaseState;
    const numbers = [constants?.SOCKET, stream.kReadBytesOrError, stream.kArrayBufferOffset, stream.kLastWriteWasAsync];
    const Pipe = pipe.Pipe as PipeBinding['Pipe'] | undefined;
    if (
      typeof Pipe !== 'function' ||
      typeof pipe.PipeConnectWrap !== 'function' ||
      typeof stream.WriteWrap !== 'function' ||
      !(state instanceof Int32Array) ||
      numbers.some((value) => typeof value !== 'number')
    )
      return cachedBinding;
    const proto = Pipe.prototype as unknown as Record<string, unknown>;
    if (['connect', 'readStart', 'writeUtf8String', 'close'].some((name) => typeof proto[name] !== 'function'))
      return cachedBinding;
    cachedBinding = {
      Pipe,
      PipeConnectWrap: pipe.PipeConnectWrap as PipeBinding['PipeConnectWrap'],
      WriteWrap: stream.WriteWrap as PipeBinding['WriteWrap'],
      socketType: constants!.SOCKET as number,
      state,
      readBytes: stream.kReadBytesOrError as number,
      bufferOffset: stream.kArrayBufferOffset as number,
      lastWriteAsync: stream.kLastWriteWasAsync as number,
    };
  } catch {
    cachedBinding = null;
  }
  return cachedBinding;
}

/** The name of a libuv status (`ECONNREFUSED`), or `EOF`. */
function statusName(status: number): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- only on the error path
    return (require('node:util') as typeof import('node:util')).getSystemErrorName(status);
  } catch {
    return `status ${status}`;
  }
}

/** libuv's end of stream. */
const UV_EOF = -4095;

class PipeTransport implements Transport {
  readonly #binding: PipeBinding;
  readonly #handle: PipeHandle;
  readonly #events: TransportEvents;
  #connected = false;
  #ended = false;
  #queued: string[] = [];
  /** Writes the handle finishes later (kept referenced until they do). */
  readonly #writing = new Set<WriteRequest>();

  constructor(binding: PipeBinding, path: string, events: TransportEvents) {
    this.#binding = binding;
    this.#events = events;
    this.#handle = new binding.Pipe(binding.socketType);
    this.#handle.onread = (buffer) => this.#onRead(buffer);
    const request = new binding.PipeConnectWrap();
    request.oncomplete = (status) => {
      if (this.#ended) return;
      if (status < 0) return this.#end(statusName(status), true);
      this.#connected = true;
      const started = this.#handle.readStart();
      if (started < 0) return this.#end(statusName(started), false);
      const queued = this.#queued;
      this.#queued = [];
      for (const text of queued) this.write(text);
    };
    const status = this.#handle.connect(request, path);
    // Reported as a failed connection would be: after this call returns, never inside it.
    if (status < 0) queueMicrotask(() => this.#end(statusName(status), true));
  }

  write(text: string): void {
    if (this.#ended) return;
    if (!this.#connected) {
      this.#queued.push(text);
      return;
    }
    const request = new this.#binding.WriteWrap();
    request.handle = this.#handle;
    request.async = false;
    request.oncomplete = (status) => {
      this.#writing.delete(request);
      if (status < 0) this.#end(statusName(status), false);
    };
    const status = this.#handle.writeUtf8String(request, text);
    if (status < 0) return this.#end(statusName(status), false);
    if (this.#binding.state[this.#binding.lastWriteAsync] !== 0) this.#writing.add(request);
  }

  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#handle.close();
  }

  #onRead(buffer: ArrayBuffer): void {
    const { state, readBytes, bufferOffset } = this.#binding;
    const count = state[readBytes]!;
    if (count > 0) this.#events.data(Buffer.from(buffer, state[bufferOffset]!, count));
    else if (count < 0) this.#end(count === UV_EOF ? 'EOF' : statusName(count), false);
  }

  #end(code: string, connecting: boolean): void {
    if (this.#ended) return;
    this.close();
    this.#events.end(code, connecting);
  }
}

/** The same over `net` (a Socket and Node's streams). */
function netTransport(path: string, events: TransportEvents): Transport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when the pipe handle is not used
  const { connect } = require('node:net') as typeof import('node:net');
  let ended = false;
  let connected = false;
  const socket = connect(path);
  const end = (code: string): void => {
    if (ended) return;
    ended = true;
    socket.destroy();
    events.end(code, !connected);
  };
  socket.on('connect', () => (connected = true));
  socket.on('data', (chunk: Buffer) => {
    if (!ended) events.data(chunk);
  });
  socket.on('error', (error: NodeJS.ErrnoException) => end(error.code ?? 'error'));
  socket.on('close', () => end('EOF'));
  return {
    write: (text) => {
      if (!ended) socket.write(text);
    },
    close: () => {
      ended = true;
      socket.destroy();
    },
  };
}
