import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, userEnv, type Served } from '../support/serve';

// Issue 44 item 3: `serve --open` says when it could not open a browser (the newcomer's headless box said nothing):
// no display to open one on, an opener that fails, and, when it works, that it asked the opener, which got the URL.
// The opener is a stand-in `xdg-open` first on the PATH (Linux: the test runs where the project's CI runs).
let dir: string;
const running: Served[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-serve-open-'));
  mkdirSync(join(dir, 'bin'));
});
afterEach(async () => {
  for (const served of running.splice(0)) await served.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `serve --open` with an `xdg-open` that records its arguments and exits `code`; its log once `expected` shows. */
async function openWith(code: number, display: Record<string, string | undefined>, expected: RegExp) {
  const opened = join(dir, 'opened');
  writeFileSync(join(dir, 'bin', 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > "${opened}"\nexit ${code}\n`);
  chmodSync(join(dir, 'bin', 'xdg-open'), 0o755);
  const served = await startServe(
    dir,
    ['--open'],
    userEnv({
      AGENT_SESSION_DIR: join(dir, 'store'),
      AGENT_SESSION_PROJECT: 'github.com/acme/open',
      HOME: dir,
      PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
      DISPLAY: undefined,
      WAYLAND_DISPLAY: undefined,
      ...display,
    }),
  );
  running.push(served);
  const until = Date.now() + 20_000;
  while (!expected.test(served.stderr()) && Date.now() < until) await new Promise((done) => setTimeout(done, 100));
  return { served, log: served.stderr(), opened: existsSync(opened) ? readFileSync(opened, 'utf8') : null };
}

/** The opener and the display variables are Linux's (xdg-open); elsewhere these are visible skips. */
const onLinux = process.platform === 'linux' ? it : it.skip;

onLinux('says so when there is no display to open a browser on', async () => {
  const { log, opened } = await openWith(0, {}, /could not open a browser/);
  expect(log).toMatch(
    /could not open a browser \(no display: DISPLAY and WAYLAND_DISPLAY are unset\); open the URL above/,
  );
  expect(log).toContain('ssh -L');
  expect(opened).toBeNull();
});

onLinux('says so when the opener fails, naming its exit code', async () => {
  const { log, opened, served } = await openWith(3, { DISPLAY: ':99' }, /could not open a browser|asked xdg-open/);
  expect(log).toContain('could not open a browser (xdg-open exited 3)');
  expect(opened).toBe(served.url);
});

onLinux('says it asked the opener, which got the printed URL', async () => {
  const { log, opened, served } = await openWith(0, { WAYLAND_DISPLAY: 'wayland-0' }, /could not open|asked xdg-open/);
  expect(log).toContain('asked xdg-open to open the page in the default browser');
  expect(log).not.toContain('could not open');
  expect(opened).toBe(served.url);
});
