// Every test file gets a relay folder of its own (README "Shared store": the relays listen in
// $XDG_RUNTIME_DIR/agent-session), so a PostgreSQL hook run by a test never reaches a relay of the user running the
// tests, nor one of another test file; after the file, every relay started there is stopped. A relay idles out after
// a few seconds anyway. Loaded by jest's setupFilesAfterEnv (jest.config.js, jest.stress.config.js).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopRelaysIn } from './relays';

const folder = mkdtempSync(join(tmpdir(), 'agent-session-xdg-'));
process.env.XDG_RUNTIME_DIR = folder;
process.env.AGENT_SESSION_RELAY_IDLE_SECONDS ??= '5';

afterAll(async () => {
  await stopRelaysIn(join(folder, 'agent-session'));
  rmSync(folder, { recursive: true, force: true });
});
