import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { SessionError } from '../src/core/errors';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** A fresh temp folder, removed after the current test file. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const BIN = {
  cli: resolve(__dirname, '..', 'dist', 'agent-session.cjs'),
  preDelegate: resolve(__dirname, '..', 'dist', 'pre-delegate.cjs'),
  subagentStop: resolve(__dirname, '..', 'dist', 'subagent-stop.cjs'),
} as const;

/**
 * The environment a test runs a built bin in: the runner's, less the variables that choose a store or a project (the
 * test's own come in `extra`) and the CA bundle, with `extra` over it; a variable `extra` sets to undefined is removed.
 */
export function binEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: '',
    AGENT_SESSION_DIR: undefined,
    CLAUDE_PROJECT_DIR: undefined,
    // A developer's own PostgreSQL store must not be what a file-store test runs against.
    AGENT_SESSION_DATABASE_URL: undefined,
    AGENT_SESSION_DATABASE_SCHEMA: undefined,
    // Run from inside a Claude Code session, a test must not take that session's word for the hooks' own runs.
    CLAUDE_CODE_SESSION_ATTENDED: undefined,
    CLAUDE_CODE_ENTRYPOINT: undefined,
    ...extra,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return env as NodeJS.ProcessEnv;
}

/** Runs a built bin as a user would: `node <bin> args…`, with stdin and a clean environment. */
export function run(
  bin: string,
  args: readonly string[],
  options: { cwd: string; input?: string; env?: Record<string, string | undefined> },
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 20_000,
    env: binEnv(options.env),
  });
}

/** The SessionError code `fn` throws, undefined when it does not throw, or a marker for any other error. */
export function codeOf(fn: () => unknown): string | undefined {
  let result: unknown;
  try {
    result = fn();
  } catch (error) {
    return error instanceof SessionError ? error.code : `not a SessionError: ${String(error)}`;
  }
  // A Promise would hide its rejection from this synchronous check: the caller wants codeOfAsync.
  if (result instanceof Promise) throw new Error('codeOf got a Promise: use `await codeOfAsync(…)`');
  return undefined;
}

/** As codeOf, for work that may reject: the SessionError code it throws or rejects with, else undefined. */
export async function codeOfAsync(fn: () => unknown): Promise<string | undefined> {
  try {
    await fn();
  } catch (error) {
    return error instanceof SessionError ? error.code : `not a SessionError: ${String(error)}`;
  }
  return undefined;
}

/** Makes a new project folder (with `.claude/`) under `base` for each call. */
export function projectMaker(base: string): () => string {
  let n = 0;
  return () => {
    const dir = join(base, `p${n++}`);
    mkdirSync(join(dir, '.claude'), { recursive: true });
    return dir;
  };
}

/**
 * Makes `dir` a git repository whose `origin` is `remote`, with the config git itself writes for `git init` and
 * `git remote add origin <remote>` (written here: the tests need no git binary; tests/unit/platform/git.test.ts reads
 * what the real git writes). Returns `dir`.
 */
export function gitRepository(dir: string, remote: string): string {
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(
    join(dir, '.git', 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n' +
      `[remote "origin"]\n\turl = ${remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`,
  );
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return dir;
}
