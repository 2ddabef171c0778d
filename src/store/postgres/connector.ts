import { connect, type Socket } from 'node:net';
import type { DatabaseTarget } from '../../core/database-url';

/** A backend's cancel key (PostgreSQL's BackendKeyData), as the driver keeps it on a query it sent. */
export interface BackendKey {
  readonly pid: number;
  readonly secret: number;
}

/**
 * How the connections of one driver client reach the server: postgres.js's `socket` option, so that connecting is
 * ours to bound. Left to itself, postgres.js retries at once, for ever, a connection the server closes during the
 * handshake (~730 times a second against an HTTP server or a proxy: porsager/postgres#1193), and never gives up
 * when every host of several fails (#1188). Here:
 * - each connection tries the targets in order (libpq's `target_session_attrs=any`), each within `connectMs`; the
 *   first that accepts is used; none: the last error;
 * - a connection asked for again before any statement succeeded (the server closed the last one during the
 *   handshake) starts at the next target, and after one round of every target per connection of the client, the
 *   connection is refused (CONNECTION_CLOSED): a handful of attempts, never a storm;
 * - after `shutDown`, no connection is opened, and every socket opened is destroyed: a backend stuck on a lock reads
 *   nothing, so the driver's polite goodbye (Terminate, then waiting for the server to close) would keep the process
 *   alive until the lock is released.
 */
export class Connector {
  readonly #targets: readonly DatabaseTarget[];
  readonly #connectMs: number;
  readonly #maxAttempts: number;
  /** Connections asked for since a statement last succeeded (see established). */
  #attempts = 0;
  /** The target of the latest connection opened. */
  #current = 0;
  #shut = false;
  /** The sockets opened and not closed yet: destroyed by shutDown. */
  readonly #sockets = new Set<Socket>();

  /**
   * @param connections the most connections the client opens at once (each may need its round of the targets)
   */
  constructor(targets: readonly DatabaseTarget[], connectMs: number, connections: number) {
    this.#targets = targets;
    this.#connectMs = connectMs;
    this.#maxAttempts = targets.length * connections;
  }

  /** postgres.js's `socket` option: a connected socket to the first target that accepts. */
  readonly open = async (): Promise<Socket> => {
    if (this.#shut) throw connectionError('CONNECTION_ENDED', 'the store was closed');
    if (this.#attempts >= this.#maxAttempts)
      throw connectionError(
        'CONNECTION_CLOSED',
        `${this.#describeAll()} closed the connection ${this.#attempts === 1 ? 'once' : `${this.#attempts} times`} ` +
          'before the PostgreSQL handshake completed: is it a PostgreSQL server?',
      );
    const start = this.#attempts % this.#targets.length;
    this.#attempts++;
    let last: unknown;
    for (let i = 0; i < this.#targets.length; i++) {
      const index = (start + i) % this.#targets.length;
      try {
        const socket = await this.#connect(this.#targets[index]!);
        this.#current = index;
        return socket;
      } catch (error) {
        last = error;
      }
    }
    throw last;
  };

  /** A statement succeeded: the connection in use completed its handshake. */
  established(): void {
    this.#attempts = 0;
  }

  /**
   * Asks the server to cancel what the backend `key` is running (a CancelRequest on a connection of its own, to the
   * target of the latest connection): a statement the caller stopped waiting for (a lock wait, a slow query) must
   * not keep running or waiting there. Never fails. Settles once the request is written (the server acts on it; its
   * closing the connection is not waited for: a server that accepts and then stalls never closes it), or after
   * `withinMs` (default `connectMs`) when it could not be: a caller's deadline is never stretched by a cancel.
   */
  cancel(key: BackendKey, withinMs = this.#connectMs): Promise<void> {
    const target = this.#targets[this.#current]!;
    return new Promise((done) => {
      const socket = target.kind === 'tcp' ? connect({ host: target.host, port: target.port }) : connect(target.path);
      let settled = false;
      const finish = (): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Written (or failed): the socket no longer keeps the process alive; the server closes it, or the timer does.
        socket.unref();
        setTimeout(() => socket.destroy(), this.#connectMs).unref();
        done();
      };
      const timer = setTimeout(() => {
        socket.destroy();
        finish();
      }, withinMs);
      socket.once('error', () => socket.destroy());
      socket.once('close', finish);
      socket.once('connect', () => {
        // Inside an event handler a throw would end the process: a hook must never fail for a cancel.
        try {
          const message = Buffer.alloc(16);
          message.writeUInt32BE(16, 0);
          message.writeUInt32BE(80877102, 4);
          // Both are 32 bits; the driver keeps them as unsigned numbers.
          message.writeUInt32BE(key.pid >>> 0, 8);
          message.writeUInt32BE(key.secret >>> 0, 12);
          socket.end(message, finish);
        } catch {
          socket.destroy();
        }
      });
    });
  }

  /** No connection is opened from now on; every socket opened is destroyed. */
  shutDown(): void {
    this.#shut = true;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  // --- internal ---

  #connect(target: DatabaseTarget): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = target.kind === 'tcp' ? connect({ host: target.host, port: target.port }) : connect(target.path);
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
      const settle = (error: unknown): void => {
        clearTimeout(timer);
        socket.removeListener('error', settle);
        socket.removeListener('close', closed);
        if (error === null) {
          // What postgres.js reads of a socket it connected itself: the TLS server name and its messages.
          Object.assign(socket, { host: target.kind === 'tcp' ? target.host : target.path, port: target.port });
          resolve(socket);
        } else {
          socket.destroy();
          reject(error);
        }
      };
      const closed = (): void => settle(connectionError('CONNECTION_ENDED', 'the store was closed'));
      const timer = setTimeout(
        () =>
          settle(
            connectionError(
              'CONNECT_TIMEOUT',
              `${describe(target)} did not accept the connection within ${this.#connectMs / 1000} s`,
            ),
          ),
        this.#connectMs,
      );
      socket.once('error', settle);
      socket.once('close', closed);
      socket.once('connect', () => settle(null));
    });
  }

  #describeAll(): string {
    return this.#targets.map(describe).join(', ');
  }
}

// --- internal ---

function describe(target: DatabaseTarget): string {
  return target.kind === 'tcp'
    ? `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`
    : target.path;
}

/** An error shaped as the driver's connection errors (`code`), which the store reports as E_IO. */
function connectionError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
