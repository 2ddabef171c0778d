import { chmodSync, chownSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  checkFolder,
  checkSocket,
  ensureFolder,
  markStarting,
  ownUid,
  relayFolder,
  relayPlace,
} from '../../../../src/store/relay/relay-folder';
import { tempDir } from '../../../helpers';

const root = tempDir();
let n = 0;
/** A fresh folder under the test's temp folder, with `mode`. */
function folder(mode = 0o700): string {
  const dir = join(root, `f${n++}`);
  mkdirSync(dir);
  chmodSync(dir, mode);
  return dir;
}

describe('the relay folder', () => {
  it('is $XDG_RUNTIME_DIR/agent-session when that folder is private, else agent-session-<uid> in TMPDIR or /tmp', () => {
    const runtime = folder(0o700);
    expect(relayFolder({ XDG_RUNTIME_DIR: runtime, TMPDIR: '/var/tmp' })).toBe(join(runtime, 'agent-session'));
    // Open to others, absent, relative: not a runtime folder of this user's.
    expect(relayFolder({ XDG_RUNTIME_DIR: folder(0o755), TMPDIR: '/var/tmp' })).toBe(
      `/var/tmp/agent-session-${ownUid()}`,
    );
    expect(relayFolder({ XDG_RUNTIME_DIR: join(root, 'none') })).toBe(`/tmp/agent-session-${ownUid()}`);
    expect(relayFolder({ XDG_RUNTIME_DIR: 'run/user' })).toBe(`/tmp/agent-session-${ownUid()}`);
  });

  it('is used only when it is a real folder of this user that no one else may enter', () => {
    expect(checkFolder(folder(0o700))).toEqual({ kind: 'ok' });
    expect(checkFolder(join(root, 'absent'))).toEqual({ kind: 'absent' });
    for (const mode of [0o750, 0o705, 0o777]) expect(checkFolder(folder(mode)).kind).toBe('refused');
    const link = join(root, 'link');
    symlinkSync(folder(0o700), link);
    expect(checkFolder(link).kind).toBe('refused');
    const file = join(root, 'file');
    writeFileSync(file, '');
    expect(checkFolder(file).kind).toBe('refused');
  });

  it('is made 0700 when absent, whatever the umask', () => {
    const dir = join(folder(), 'agent-session');
    const umask = process.umask(0);
    try {
      expect(ensureFolder(dir)).toEqual({ kind: 'ok' });
    } finally {
      process.umask(umask);
    }
    expect(checkFolder(dir)).toEqual({ kind: 'ok' });
  });

  (ownUid() === 0 ? it : it.skip)('refuses a folder or a socket another user owns (root only: chown)', async () => {
    const squatted = folder(0o700);
    chownSync(squatted, 65534, 65534);
    expect(checkFolder(squatted).kind).toBe('refused');
    expect(ensureFolder(squatted).kind).toBe('refused');
    const dir = folder(0o700);
    const socket = join(dir, 'relay.sock');
    const server = createServer();
    await new Promise<void>((done) => server.listen(socket, done));
    try {
      expect(checkSocket(socket)).toEqual({ kind: 'ok' });
      chownSync(socket, 65534, 65534);
      expect(checkSocket(socket).kind).toBe('refused');
    } finally {
      server.close();
    }
  });

  it('names no socket that is not one: a file or a link in its place is refused', () => {
    const dir = folder();
    writeFileSync(join(dir, 'plain.sock'), '');
    expect(checkSocket(join(dir, 'plain.sock')).kind).toBe('refused');
    symlinkSync('/dev/null', join(dir, 'link.sock'));
    expect(checkSocket(join(dir, 'link.sock')).kind).toBe('refused');
    expect(checkSocket(join(dir, 'none.sock'))).toEqual({ kind: 'absent' });
    // Deeper than a unix socket path may be (a long TMPDIR): no relay there, rather than one that cannot listen.
    expect(checkSocket(join(dir, 'x'.repeat(120), 'relay.sock')).kind).toBe('refused');
  });
});

describe('relay names', () => {
  const url = 'postgres://agents:s3cret-pass@db.example:5432/agents';

  it('is one socket per URL, schema and build, named by a hash that never shows the password', () => {
    const place = relayPlace('/run/x', url, 'agent_session', 'b1');
    expect(place.socket).toMatch(/^\/run\/x\/relay-[0-9a-f]{16}\.sock$/);
    expect(place.lock).toBe(place.socket.replace(/\.sock$/, '.lock'));
    expect(JSON.stringify(place)).not.toContain('s3cret');
    expect(relayPlace('/run/x', url, 'agent_session', 'b1')).toEqual(place);
    const others = [
      relayPlace('/run/x', url, 'other_schema', 'b1'),
      relayPlace('/run/x', url.replace('s3cret-pass', 'other'), 'agent_session', 'b1'),
      relayPlace('/run/x', url, 'agent_session', 'b2'),
    ];
    expect(new Set([place.key, ...others.map((other) => other.key)]).size).toBe(4);
  });

  it('marks a relay as starting once per 10 s, so the hooks right after do not start more', () => {
    const marker = join(folder(), 'relay-x.starting');
    expect(markStarting(marker)).toBe(true);
    expect(markStarting(marker)).toBe(false);
    const old = new Date(Date.now() - 11_000);
    utimesSync(marker, old, old);
    expect(markStarting(marker)).toBe(true);
  });
});
