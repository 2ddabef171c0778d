import { join } from 'node:path';
import type { Config } from '../core/config';
import { assertDatabaseUrl, assertSchemaName, WAIT_LIMITS } from '../core/database';
import type { SessionStore } from '../service/store';
import { positiveNumber } from '../platform/env';
import { lstatOrNull } from '../platform/files';
import { askRelay, type RelayReply } from '../store/relay/relay-admin';
import { relayFolder, relayPlace, type RelayPlace } from '../store/relay/relay-folder';
import { RELAY_BUILD } from '../store/relay/relay-protocol';
import type { RelayStatus } from '../store/relay/relay-server';
import { openRelayStore } from '../store/relay/relay-store';
import { databaseOf, loadPgStore, openPgStore, pgLocation } from './postgres';

/**
 * The local relay (src/store/relay/, README "Shared store"): the hooks' PostgreSQL store through it, and the relay
 * commands. Required only on those paths (app/stores.ts, cli/commands/relay.ts): a file-store hook, or one that
 * connects directly (AGENT_SESSION_RELAY=off), loads none of it.
 * The server and the starter, which load `net` and `child_process`, are required only when one serves or starts.
 */

/**
 * The PostgreSQL store of a hook process through the local relay, which holds the connection: the relay's client, which
 * starts a relay when none answers and falls back to a direct connection, within the hook's waits.
 */
export function openRelayClient(
  url: string,
  schema: string,
  env: Readonly<Record<string, string | undefined>>,
): SessionStore {
  const limits = WAIT_LIMITS.hook;
  const place = relayPlaceOf(url, schema, env);
  const start = starter(url, schema, env);
  return openRelayStore({
    place,
    store: { url, schema },
    location: pgLocation(url, schema),
    totalMs: limits.totalMs,
    // What is left of the hook's budget, for a direct connection after the relay did not serve.
    direct: (timeLeftMs) =>
      openPgStore(url, schema, {
        connectMs: Math.min(limits.connectMs, Math.max(timeLeftMs, 1)),
        statementMs: Math.min(limits.statementMs, Math.max(timeLeftMs, 1)),
        totalMs: Math.max(timeLeftMs, 1),
      }),
    start,
  });
}

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
  const { url, schema } = env[STORE_VARIABLE] === undefined ? databaseOf(config, 'for a relay') : storeOf(env);
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
/** The store a hook starts its relay for: `{"url", "schema"}`, in the relay's environment (never on its command line). */
const STORE_VARIABLE = 'AGENT_SESSION_RELAY_STORE';

/**
 * How a hook starts a relay: `agent-session relay serve` from the bin's own folder (the bins are siblings, in dist/ and
 * in the plugin), by the node running the hook, with the store in its environment; nothing when that bin is not
 * there (run from the sources).
 */
function starter(url: string, schema: string, env: Readonly<Record<string, string | undefined>>): () => void {
  return () => {
    const cli = join(__dirname, 'agent-session.cjs');
    if (lstatOrNull(cli) === null) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loads `child_process`: only a start needs it
    const start = require('../store/relay/relay-start') as typeof import('../store/relay/relay-start');
    start.startDetached([process.execPath, cli, 'relay', 'serve'], {
      ...env,
      [STORE_VARIABLE]: JSON.stringify({ url, schema }),
    });
  };
}

/** Where the relay of a store is (its folder, socket and lock), for this build. */
function relayPlaceOf(url: string, schema: string, env: Readonly<Record<string, string | undefined>>): RelayPlace {
  return relayPlace(relayFolder(env), url, schema, RELAY_BUILD);
}

/** The store a starting hook gave its relay (AGENT_SESSION_RELAY_STORE), checked as a configured one is. */
function storeOf(env: Readonly<Record<string, string | undefined>>): { url: string; schema: string } {
  let value: unknown;
  try {
    value = JSON.parse(env[STORE_VARIABLE] ?? '');
  } catch {
    value = null;
  }
  const { url, schema } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    url: assertDatabaseUrl(url, `\`url\` in ${STORE_VARIABLE}`),
    schema: assertSchemaName(schema, `\`schema\` in ${STORE_VARIABLE}`),
  };
}

/** Test hook (AGENT_SESSION_TEST_RELAY_PAUSE=`<call>:before|after`): the relay stops for good at that call. */
function pauseOf(env: Readonly<Record<string, string | undefined>>): {
  pause?: { call: string; when: 'before' | 'after' };
} {
  const match = /^([$\w]+):(before|after)$/.exec(env.AGENT_SESSION_TEST_RELAY_PAUSE ?? '');
  return match === null ? {} : { pause: { call: match[1]!, when: match[2] as 'before' | 'after' } };
}
