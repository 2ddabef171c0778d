import {
  answerError,
  clientHelloLine,
  decodeValue,
  encodeValue,
  LineReader,
  parseLine,
  parseRelayHello,
  RELAY_BUILD,
  RELAY_PROTOCOL,
  type RelayHello,
} from './relay-protocol';
import { openTransport, type Transport, type TransportKind } from './relay-transport';

/**
 * Why a relay could not answer: absent, stale, refused, silent, gone or talking garbage. Never leaves the relay's
 * client (relay-store.ts), which turns it into a direct connection or an E_IO.
 */
export class RelayFault extends Error {
  /**
   * @param delivered whether the relay may have run the request (it had accepted the connection's hello): a request
   *   it may have run is never sent again anywhere, unless it only reads
   * @param startable nothing listens on the socket (absent or stale): a new relay may be started
   */
  constructor(
    message: string,
    readonly delivered: boolean,
    readonly startable: boolean,
  ) {
    super(message);
  }
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One connection to a relay, for one client process: the hello, then requests answered in order. Reads bytes up to
 * each newline and decodes each line whole (a newline never occurs inside a UTF-8 sequence), so no string decoder
 * is loaded. Bounded: no hello within `helloMs` (a relay that accepts and stays silent), or no answer before
 * `deadlineAt` (the caller's whole budget), ends the connection with a fault.
 */
export class RelayLink {
  readonly #transport: Transport;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  readonly #lines = new LineReader();
  #hello: RelayHello | null = null;
  readonly #helloWait: Promise<void>;
  #helloSettle!: { resolve: () => void; reject: (error: unknown) => void };
  #fault: RelayFault | null = null;
  #timer: NodeJS.Timeout;
  readonly #deadlineAt: number;

  constructor(
    path: string,
    store: Readonly<Record<string, unknown>>,
    helloMs: number,
    deadlineAt: number,
    transport?: TransportKind,
  ) {
    this.#deadlineAt = deadlineAt;
    this.#helloWait = new Promise<void>((resolve, reject) => (this.#helloSettle = { resolve, reject }));
    // A fault before anyone waits for the hello must not be an unhandled rejection.
    this.#helloWait.catch(() => undefined);
    this.#transport = openTransport(
      path,
      {
        data: (chunk) => this.#read(chunk),
        end: (code, connecting) => {
          if (code === 'EOF') return this.#fail('the relay closed the connection', false);
          // Nothing listens: no socket file (ENOENT) or one left by a relay that died (ECONNREFUSED).
          const startable = connecting && (code === 'ENOENT' || code === 'ECONNREFUSED');
          this.#fail(`the relay socket failed (${code})`, startable);
        },
      },
      transport,
    );
    this.#transport.write(clientHelloLine(store));
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, Math.min(helloMs, deadlineAt - Date.now())));
  }

  /** The relay's process id, once its hello accepted this connection. */
  get pid(): number | undefined {
    return this.#hello?.pid;
  }

  /**
   * Sends one request and waits for its answer.
   * @param early sent right behind the hello, before the relay accepted it: only for requests that change nothing
   *   (a refused hello runs nothing; a relay that accepts runs it)
   * @param inTransaction a call of the transaction `$lock` opened: the relay runs it only inside one
   * @throws RelayFault when the relay does not answer; the SessionError the relay answered with
   */
  async request(call: string, args: readonly unknown[], early: boolean, inTransaction = false): Promise<unknown> {
    if (this.#fault !== null) throw new RelayFault(this.#fault.message, false, this.#fault.startable);
    if (!early && this.#hello === null) await this.#helloWait;
    // Ended while waiting for the hello's acceptance: this request was never sent.
    const fault = this.#fault as RelayFault | null;
    if (fault !== null) throw new RelayFault(fault.message, false, fault.startable);
    const id = this.#nextId++;
    const { json, tagged } = encodeValue(args);
    const answer = new Promise<unknown>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    this.#transport.write(
      `{"id":${id},"call":${JSON.stringify(call)}${tagged ? ',"tagged":1' : ''}${inTransaction ? ',"tx":1' : ''},"args":${json}}\n`,
    );
    return answer;
  }

  /** Ends the connection (the relay rolls back a transaction left open). */
  close(): void {
    clearTimeout(this.#timer);
    this.#fault ??= new RelayFault('the connection was closed', false, false);
    this.#transport.close();
  }

  // --- internal ---

  #read(chunk: Buffer): void {
    this.#lines.read(chunk, (line) => {
      this.#line(line);
      return this.#fault === null;
    });
  }

  #line(line: string): void {
    if (this.#hello === null) {
      const hello = parseRelayHello(line);
      if (hello === null) return this.#fail('the relay answered something that is not its hello', false);
      if (hello.refused !== undefined) return this.#fail(`the relay refused this client: ${hello.refused}`, false);
      if (hello.protocol !== RELAY_PROTOCOL || hello.build !== RELAY_BUILD)
        return this.#fail(
          `the relay speaks protocol ${hello.protocol} of build ${hello.build}, not ${RELAY_PROTOCOL} of ${RELAY_BUILD}`,
          false,
        );
      this.#hello = hello;
      this.#helloSettle.resolve();
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#expire(), Math.max(0, this.#deadlineAt - Date.now()));
      return;
    }
    const answer = parseLine(line);
    const id = answer?.id;
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (answer === null || pending === undefined) return this.#fail('the relay answered garbage', false);
    this.#pending.delete(id as number);
    if (answer.error !== undefined) {
      const error = answerError(answer.error);
      if (error === null) return this.#fail('the relay answered an error it does not define', false);
      pending.reject(error);
    } else {
      try {
        pending.resolve(decodeValue(answer.ok, answer.tagged === 1));
      } catch {
        return this.#fail('the relay answered a value it does not define', false);
      }
    }
  }

  #expire(): void {
    this.#fail(
      this.#hello === null ? 'the relay did not greet in time' : 'the relay did not answer within the time left',
      false,
    );
    this.#transport.close();
  }

  /** The connection is over: every request waiting gets the fault (delivered when the hello had been accepted). */
  #fail(message: string, startable: boolean): void {
    if (this.#fault !== null) return;
    clearTimeout(this.#timer);
    const delivered = this.#hello !== null;
    this.#fault = new RelayFault(message, delivered, startable);
    this.#helloSettle.reject(this.#fault);
    for (const pending of this.#pending.values()) pending.reject(new RelayFault(message, delivered, startable));
    this.#pending.clear();
    this.#transport.close();
  }
}
