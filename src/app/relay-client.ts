import { join } from 'node:path';
import { WAIT_LIMITS } from '../core/database';
import type { SessionStore } from '../service/store';
import { lstatOrNull } from '../platform/files';
import { relayFolder, relayPlace, type RelayPlace } from '../store/relay/relay-folder';
import { RELAY_BUILD } from '../store/relay/relay-protocol';
import { openRelayStore } from '../store/relay/relay-store';
import { openPgStore, pgLocation } from './postgres';

/**
 * The local relay's client (src/store/relay/, README "Shared store"): a hook process's PostgreSQL store through the
 * relay. Required by app/stores.ts on that path only: a file-store hook, or one that connects directly
 * (AGENT_SESSION_RELAY=off), loads none of it. The relay's own side (`relay serve`, `status`, `stop`) is
 * app/relay-server.ts, which no hook bundles.
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

/** The store a hook starts its relay for: `{"url", "schema"}`, in the relay's environment (never on its command line). */
export const RELAY_STORE_VARIABLE = 'AGENT_SESSION_RELAY_STORE';

/** Where the relay of a store is (its folder, socket and lock), for this build. */
export function relayPlaceOf(
  url: string,
  schema: string,
  env: Readonly<Record<string, string | undefined>>,
): RelayPlace {
  return relayPlace(relayFolder(env), url, schema, RELAY_BUILD);
}

// --- internal ---

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
      [RELAY_STORE_VARIABLE]: JSON.stringify({ url, schema }),
    });
  };
}
