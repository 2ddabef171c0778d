import type { Config } from '../core/config';
import { assertDatabaseUrl, assertSchemaName, WAIT_LIMITS } from '../core/database';
import { positiveNumber } from '../platform/env';
import { askRelay, type RelayReply } from '../store/relay/relay-admin';
import type { RelayStatus } from '../store/relay/relay-server';
import { databaseOf, loadPgStore, pgLocation } from './postgres';
import { RELAY_STORE_VARIABLE, relayPlaceOf } from './relay-client';

/**
 * The local relay's own side (src/store/relay/, README "Shared store"): `agent-session relay serve` (which a hook
 * starts detached: app/relay-client.ts), `relay status` and `relay stop`. Imported by the relay command only.
 */

/** The relay of the configured database (README "Shared store"): its socket, and what it says or why it is absent. */
export interface RelayReport {
  readonly location: string;
  readonly socket: string;
  readonly reply: RelayReply;
}

/**
 * Asks the relay of the configured database for its status (`relay status`) or to stop (`relay stop`).
 * @throws SessionError E_USAGE when no database is configured
 */
export async function askRelayOf(
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  question: 'status' | 'stop',
): Promise<RelayReport> {
  const { url, schema } = databaseOf(config, 'for a relay');
  const place = relayPlaceOf(url, schema, env);
  const reply = await askRelay(place, { url, schema }, question === 'status' ? '$status' : '$stop');
  return { location: pgLocation(url, schema), socket: place.socket, reply };
}

/** What `relay status` shows of a running relay. */
export type { RelayStatus };

/**
 * Runs the relay (`relay serve`, which a hook starts detached) until it stops: for the store a starting hook named
 * (AGENT_SESSION_RELAY_STORE), else the configured database.
 * @throws SessionError E_USAGE when no database is configured or the variable is malformed; E_REFUSED, E_BUSY, E_IO
 */
export async function serveRelay(
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): Promise<'stopped' | 'already_running'> {
  const { url, schema } = env[RELAY_STORE_VARIABLE] === undefined ? databaseOf(config, 'for a relay') : storeOf(env);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loads `net`: only a serving relay needs it
  const server = require('../store/relay/relay-server') as typeof import('../store/relay/relay-server');
  const idleSeconds = positiveNumber(env.AGENT_SESSION_RELAY_IDLE_SECONDS) ?? IDLE_SECONDS;
  return server.runRelay({
    place: relayPlaceOf(url, schema, env),
    url,
    schema,
    location: pgLocation(url, schema),
    open: (options) =>
      new (loadPgStore().PgStore)({ ...options, url, schema, limits: WAIT_LIMITS.relay, recheckMs: RECHECK_MS }),
    idleMs: idleSeconds * 1000,
    log,
    ...pauseOf(env),
  });
}

// --- internal ---

/** How long a relay waits for its next client before it stops (AGENT_SESSION_RELAY_IDLE_SECONDS changes it). */
const IDLE_SECONDS = 300;
/** How often a relay's stores check the schema again (a newer version's migration is noticed within this). */
const RECHECK_MS = 60_000;

/** The store a starting hook gave its relay (AGENT_SESSION_RELAY_STORE), checked as a configured one is. */
function storeOf(env: Readonly<Record<string, string | undefined>>): { url: string; schema: string } {
  let value: unknown;
  try {
    value = JSON.parse(env[RELAY_STORE_VARIABLE] ?? '');
  } catch {
    value = null;
  }
  const { url, schema } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    url: assertDatabaseUrl(url, `\`url\` in ${RELAY_STORE_VARIABLE}`),
    schema: assertSchemaName(schema, `\`schema\` in ${RELAY_STORE_VARIABLE}`),
  };
}

/** Test hook (AGENT_SESSION_TEST_RELAY_PAUSE=`<call>:before|after`): the relay stops for good at that call. */
function pauseOf(env: Readonly<Record<string, string | undefined>>): {
  pause?: { call: string; when: 'before' | 'after' };
} {
  const match = /^([$\w]+):(before|after)$/.exec(env.AGENT_SESSION_TEST_RELAY_PAUSE ?? '');
  return match === null ? {} : { pause: { call: match[1]!, when: match[2] as 'before' | 'after' } };
}
