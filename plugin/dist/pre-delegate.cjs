#!/usr/bin/env node
const NAME = "pre-delegate";
const BUNDLE_HASH = "2b3e240474a0c095";
const BUILD_ID = "5757cdad5859f8a5";
const MISSING_EXIT_CODE = 0;
// The body of every bin's loader (scripts/code-cache.mjs prepends NAME, BUNDLE_HASH and MISSING_EXIT_CODE). It reads
// the bundle beside it and compiles it with a V8 code cache that the user's own Node made, kept in a private per-user
// folder: `$AGENT_SESSION_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-session`, else `~/.cache/agent-session`. No cache
// ships with agent-session: V8 accepts a cache only from its own version and flags, so one made at build time served
// only the building machine's Node (and a plugin is built once for every user's Node). When the cache is absent or V8
// rejects it, the call runs without it and, as it exits, starts make-cache.cjs in the background, which runs the bin's
// representative calls in a temporary store and writes the cache of everything they compiled: a cache made after the
// calls holds the functions they ran, which Node's own compile cache (made before any function runs) does not
// (measured: docs/performance.md). Two kinds: the file store's calls, and, once a call used a database, a
// `-database` cache with the PostgreSQL path too, read first from then on (a file store's calls never deserialize the
// relay's code). The folder is used only when it is a directory owned by this user, private (no group or other
// access) and not a link; anything wrong with it or with the cache means "compile from source".
'use strict';
const fs = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');
const debug = process.env.AGENT_SESSION_DEBUG === '1';
let source;
try {
  // latin1: the bundle is ASCII (esbuild's charset 'ascii'), so this is its text without a UTF-8 decode.
  source = fs.readFileSync(join(__dirname, NAME + '.bundle'), 'latin1');
} catch (error) {
  process.stderr.write(
    'agent-session: Expected the bundle ' +
      join(__dirname, NAME + '.bundle') +
      ' beside this bin (reinstall agent-session), got ' +
      (error.code || error.message) +
      '\n',
  );
  process.exitCode = MISSING_EXIT_CODE;
}
if (source !== undefined) {
  const cache = readCodeCache();
  const script = new Script(source, { filename: __filename, cachedData: cache === null ? undefined : cache.data });
  if (cache !== null) {
    const usable = cache.data !== undefined && !script.cachedDataRejected;
    /** The cache to make as this process exits, if any. */
    let wanted = usable ? null : cache.file;
    // `on`, not `once`: the process exits once, and Node 20 would compile `once`'s wrappers on every call.
    const makeAtExit = () => process.on('exit', () => makeInBackground(cache.dir, wanted));
    if (!usable) {
      if (debug)
        process.stderr.write(
          'agent-session: no code cache of this Node yet (' + cache.file + '); made in the background\n',
        );
      makeAtExit();
    }
    // A call that uses a database wants the cache that holds that path too: the `-database` one, which make-cache.cjs
    // makes with the PostgreSQL calls (a file store's calls never deserialize it). src/platform/code-cache-hint.ts
    // calls this from the composition root; nothing is registered on a call that never does.
    if (!cache.database)
      globalThis[Symbol.for('agent-session.database-used')] = () => {
        if (wanted === null) makeAtExit();
        wanted = cache.databaseFile;
      };
    // A call that removed this user's folders (`init --uninstall --purge`) makes no cache as it exits: that would
    // bring the cache folder back.
    globalThis[Symbol.for('agent-session.no-code-cache')] = () => {
      wanted = null;
    };
  }
  script.runInThisContext()(exports, require, module, __filename, __dirname);
}

/** The private per-user cache folder, or null when there is none to use (disabled, no HOME). */
function cacheFolder() {
  const env = process.env;
  if (env.AGENT_SESSION_CODE_CACHE === '0') return null;
  if (env.AGENT_SESSION_CACHE_DIR) return env.AGENT_SESSION_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'agent-session');
  return env.HOME ? join(env.HOME, '.cache', 'agent-session') : null;
}

/** True when `stat` is a folder of this user that nobody else can enter or write (never a link: lstat). */
function privateFolder(stat) {
  return stat.isDirectory() && stat.uid === process.getuid() && (stat.mode & 0o077) === 0;
}

/**
 * The cache of this bundle for this Node (version, architecture and flags: V8 rejects a cache made under others):
 * `{dir, file, databaseFile, database, data}`; the `-database` cache (the file store's and the PostgreSQL calls'
 * code) when there is one, else the file store's; `data` undefined when there is none yet; null when no folder may
 * be used.
 */
function readCodeCache() {
  const dir = cacheFolder();
  if (dir === null || typeof process.getuid !== 'function') return null;
  let flags = 0x811c9dc5;
  for (const c of process.execArgv.join(' ') + '\0' + (process.env.NODE_OPTIONS || '')) {
    flags = Math.imul(flags ^ c.charCodeAt(0), 0x01000193) >>> 0;
  }
  const base = join(
    dir,
    NAME + '-' + BUNDLE_HASH + '-' + process.version + '-' + process.arch + '-' + flags.toString(16),
  );
  const file = base + '.v8';
  const databaseFile = base + '-database.v8';
  try {
    if (!privateFolder(fs.lstatSync(dir))) {
      if (debug)
        process.stderr.write('agent-session: ' + dir + ' is not a private folder of this user; no code cache\n');
      return null;
    }
  } catch (error) {
    // Absent: the maker creates it. Anything else: no cache this time.
    return error.code === 'ENOENT' ? { dir, file, databaseFile, database: false, data: undefined } : null;
  }
  const database = readOwnFile(databaseFile);
  if (database === null) return null;
  if (database !== undefined) return { dir, file: databaseFile, databaseFile, database: true, data: database };
  const data = readOwnFile(file);
  return data === null ? null : { dir, file, databaseFile, database: false, data };
}

/** The bytes of `file`, a regular file of this user (never a link); undefined when absent or unread; null when not ours. */
function readOwnFile(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.uid !== process.getuid()) return null;
    const data = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = fs.readSync(fd, data, read, data.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return read === data.length ? data : undefined;
  } catch (error) {
    if (debug && error.code !== 'ENOENT')
      process.stderr.write('agent-session: code cache not read: ' + error.message + '\n');
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Starts make-cache.cjs, detached, to write `file` (one maker per file: an exclusive marker, taken over after a
 * minute from a maker that died). The cache only saves time, so nothing here may fail the call.
 */
function makeInBackground(dir, file) {
  if (file === null) return;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!privateFolder(fs.lstatSync(dir))) return;
    const marker = file + '.making';
    try {
      fs.closeSync(fs.openSync(marker, 'wx', 0o600));
    } catch (error) {
      if (error.code !== 'EEXIST' || Date.now() - fs.lstatSync(marker).mtimeMs < 60000) return;
      fs.writeFileSync(marker, '', { mode: 0o600 });
    }
    const { spawn } = require('node:child_process');
    // Only what the maker needs: no store, database or Claude Code setting of the caller reaches its test calls.
    const env = { PATH: process.env.PATH || '', HOME: process.env.HOME || '' };
    if (process.env.NODE_OPTIONS) env.NODE_OPTIONS = process.env.NODE_OPTIONS;
    const child = spawn(
      process.execPath,
      [...process.execArgv, join(__dirname, 'make-cache.cjs'), __filename, file, marker],
      { detached: true, stdio: 'ignore', env, cwd: dir },
    );
    child.on('error', () => undefined);
    child.unref();
  } catch (error) {
    if (debug) process.stderr.write('agent-session: code cache not made: ' + error.message + '\n');
  }
}
