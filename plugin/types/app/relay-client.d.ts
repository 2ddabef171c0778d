import type { SessionStore } from '../service/store';
import { type RelayPlace } from '../store/relay/relay-folder';
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
export declare function openRelayClient(url: string, schema: string, env: Readonly<Record<string, string | undefined>>): SessionStore;
/** The store a hook starts its relay for: `{"url", "schema"}`, in the relay's environment (never on its command line). */
export declare const RELAY_STORE_VARIABLE = "AGENT_SESSION_RELAY_STORE";
/** Where the relay of a store is (its folder, socket and lock), for this build. */
export declare function relayPlaceOf(url: string, schema: string, env: Readonly<Record<string, string | undefined>>): RelayPlace;
