// Test helpers for the PostgreSQL hooks' relay (src/store/relay/): finding the relays of a folder, and stopping them.
import { mkdirSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { WAIT_LIMITS } from '../../src/core/database';
import type { SessionStore } from '../../src/service/store';
import { PgStore } from '../../src/store/postgres/pg-store';
import { askRelay } from '../../src/store/relay/relay-admin';
import { relayPlace, type RelayPlace } from '../../src/store/relay/relay-folder';
import { RELAY_BUILD } from '../../src/store/relay/relay-protocol';
import { runRelay } from '../../src/store/relay/relay-server';
import { openRelayStore, type RelayRoute } from '../../src/store/relay/relay-store';
import type { TransportKind } from '../../src/store/relay/relay-transport';
import { alive } from './processes';

/**
 * The pid a relay gives in its hello on `socket` (any hello: a refused one names it too), or null when none answers
 * within a second.
 */
export function relayPid(socket: string): Promise<number | null> {
  return new Promise((resolve) => {
    const probe = connect(socket);
    let buffer = '';
    const done = (pid: number | null): void => {
      clearTimeout(timer);
      probe.destroy();
      resolve(pid);
    };
    const timer = setTimeout(() => done(null), 1_000);
    probe.on('error', () => done(null));
    probe.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      try {
        const pid = (JSON.parse(buffer.slice(0, end)) as { pid?: unknown }).pid;
        done(typeof pid === 'number' ? pid : null);
      } catch {
        done(null);
      }
    });
    probe.write(`${JSON.stringify({ relay: 'agent-session relay', protocol: 0, build: 'test', store: {} })}\n`);
  });
}

/** Stops (SIGTERM) every relay listening in `dir`, and waits until each has gone (at most 5 s). */
export async function stopRelaysIn(dir: string): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.sock'));
  } catch {
    return;
  }
  const pids = (await Promise.all(names.map((name) => relayPid(join(dir, name))))).filter(
    (pid): pid is number => pid !== null,
  );
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
  for (const pid of pids.filter(alive)) signal(pid, 'SIGKILL');
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/** A relay run inside the test's own process, on the test database, in its own folder. */
export interface InProcessRelay {
  readonly place: RelayPlace;
  /** The store's options a client sends in its hello. */
  readonly store: { readonly url: string; readonly schema: string };
  /** The relay's log lines so far. */
  readonly log: string[];
  /** A client of it (the hooks' store), with the commands' bounds unless `totalMs` says otherwise. */
  client(options?: {
    totalMs?: number;
    transport?: TransportKind;
    concurrent?: boolean;
  }): SessionStore & { readonly route: RelayRoute };
  /** Stops it and waits until it has. */
  stop(): Promise<void>;
}

/** Starts a relay in this process on `url` + `schema`, listening in a private folder made under `base`. */
export async function startRelay(
  url: string,
  schema: string,
  base: string,
  options: { idleMs?: number } = {},
): Promise<InProcessRelay> {
  const dir = join(base, `relay-${Math.random().toString(16).slice(2, 10)}`);
  mkdirSync(dir, { mode: 0o700 });
  const place = relayPlace(dir, url, schema, RELAY_BUILD);
  const log: string[] = [];
  const running = runRelay({
    place,
    url,
    schema,
    location: `relay test (schema ${schema})`,
    open: (opened) => new PgStore({ ...opened, url, schema, limits: WAIT_LIMITS.relay }),
    idleMs: options.idleMs ?? 60_000,
    log: (line) => log.push(line),
  });
  const deadline = Date.now() + 10_000;
  while (!log.some((line) => line.startsWith('listening')) && Date.now() < deadline) {
    const early = await Promise.race([running, new Promise((done) => setTimeout(() => done(null), 20))]);
    if (early !== null) throw new Error(`Expected the relay to start, got ${String(early)}: ${log.join('; ')}`);
  }
  const store = { url, schema };
  return {
    place,
    store,
    log,
    client: ({ totalMs = 30_000, transport, concurrent = false } = {}) =>
      openRelayStore({
        place,
        store,
        location: `relay client (schema ${schema})`,
        totalMs,
        direct: (left) => new PgStore({ url, schema, limits: { ...WAIT_LIMITS.command, totalMs: left } }),
        start: null,
        concurrent,
        ...(transport === undefined ? {} : { transport }),
      }),
    stop: async () => {
      await askRelay(place, store, '$stop');
      await running;
    },
  };
}
