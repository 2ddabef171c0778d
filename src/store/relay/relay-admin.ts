import { checkFolder, checkSocket, type RelayPlace } from './relay-folder';
import { RelayFault, RelayLink } from './relay-link';

/** What a relay answered to `$status` or `$stop`, or why none did. */
export type RelayReply =
  { readonly running: true; readonly value: unknown } | { readonly running: false; readonly why: string };

/**
 * Asks the relay of `place` one of its own questions (`$status`, `$stop`), as a client of `store` (its hello must name
 * the relay's URL and schema). Checks the folder and the socket as a hook does: a relay in a folder that is not this
 * user's alone is never asked anything.
 * @throws SessionError the relay answered with
 */
export async function askRelay(
  place: RelayPlace,
  store: Readonly<Record<string, unknown>>,
  call: '$status' | '$stop',
  timeoutMs = 5_000,
): Promise<RelayReply> {
  const folder = checkFolder(place.dir);
  if (folder.kind === 'absent') return { running: false, why: 'no relay folder' };
  if (folder.kind === 'refused') return { running: false, why: `the relay folder ${folder.why}` };
  const socket = checkSocket(place.socket);
  if (socket.kind === 'absent') return { running: false, why: 'no relay socket' };
  if (socket.kind === 'refused') return { running: false, why: `the relay socket ${socket.why}` };
  const link = new RelayLink(place.socket, store, timeoutMs, Date.now() + timeoutMs);
  try {
    return { running: true, value: await link.request(call, [], false) };
  } catch (error) {
    if (!(error instanceof RelayFault)) throw error;
    return { running: false, why: error.startable ? `a stale socket (${error.message})` : error.message };
  } finally {
    link.close();
  }
}
