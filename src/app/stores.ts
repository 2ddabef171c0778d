import { assertDatabaseUrl, WAIT_LIMITS } from '../core/database';
import { limitsOf, type Config } from '../core/config';
import { SessionError } from '../core/errors';
import { decisionOriginOf } from '../core/origin';
import type { DecisionSeal } from '../platform/decision-key';
import { copySessions, type CopyResult } from '../service/copy';
import { Sessions, type SessionsOptions } from '../service/sessions';
import type { SessionStore } from '../service/store';
import { FileStore } from '../store/file-store';
import type { PgStore } from '../store/postgres/pg-store';
import { noteDatabaseUse } from '../platform/code-cache-hint';
import { processFacts } from '../platform/process-facts';
import { isDirectory } from '../platform/files';
import { resolveFrom } from '../platform/working-directory';
import { loadConfig, projectIdentityOf, resolveRoot, storeFolderOf, type Call, type RootInputs } from './call';
import { openPgStore } from './postgres';

/**
 * The one place that opens a concrete store, from a resolved Call (call.ts): the CLI, the hooks and the library come
 * here for the service, so no adapter imports src/store.
 */

/**
 * The service on the store the call's settings select (storeOf), with their limits and history cap. The caller closes
 * it (`Sessions.close`). `options.decisionOrigin`: where its decisions are recorded from (`serve`: the browser).
 * @throws SessionError the verdict's error for a hook's call that fails open (no store is right then); E_USAGE for a
 *   malformed test clock; E_IO when a `.git` cannot be read to name the project
 */
export function openSessions(call: Call, options: Pick<SessionsOptions, 'decisionOrigin'> = {}): Sessions {
  const { config, host, settings } = call;
  if (settings.kind === 'fail_open') throw settings.error;
  // The clock first, whatever the store (a malformed test variable is refused alike), then the project: neither can
  // fail once a store (maybe a connection) is open.
  const clock = call.clock();
  const project = call.project().name;
  const store = storeOf(call, config.values, clock);
  // Issue 40 item 3: a file store's decisions are sealed with this user's key and judged on every read; PostgreSQL's
  // are the team's, guarded by its credentials (docs/security.md).
  const sealed = store instanceof FileStore ? { sign: (text: string) => userSeal(call.env).sign(text) } : {};
  return new Sessions({
    ...sealed,
    store,
    project,
    ...(host === undefined ? {} : { host }),
    limits: limitsOf(config.values),
    historyCap: config.values.history_cap,
    permissionInbox: config.values.permission_inbox,
    permissionGrantTtlHours: config.values.permission_grant_ttl_hours,
    ...options,
  });
}

/**
 * The service of a call, opened on first use and closed once: a hook's (app/hook-call.ts, for every event of the
 * call) and a command's (cli/context.ts withSessions).
 */
export class CallSessions {
  #sessions: Sessions | null = null;

  constructor(private readonly call: Call) {}

  /** The service, opened on first use (see openSessions). */
  get(): Sessions {
    return (this.#sessions ??= openSessions(this.call));
  }

  /** Closes the store when it was opened (a connection, for PostgreSQL). */
  async close(): Promise<void> {
    if (this.#sessions !== null) await this.#sessions.close();
  }
}

/**
 * The ids of the file store at the root, without reading a session or the settings (shell completion).
 * @throws SessionError E_IO when the store cannot be listed
 */
export function sessionIdsOf(inputs: RootInputs): string[] {
  return new FileStore(resolveRoot(inputs)).ids();
}

/**
 * Copies every session between two stores (`agent-session copy`): each of `fromSpec` and `toSpec` is a folder (the
 * file store, relative to the call's cwd) or a `postgres://` URL (the PostgreSQL store, in the configured schema). The
 * stores are closed afterwards.
 * @throws SessionError E_USAGE for the same store twice, a bad URL or a source folder that does not exist; E_DUPLICATE (see copySessions); E_IO
 */
export async function copyStores(
  fromSpec: string,
  toSpec: string,
  call: Call,
): Promise<CopyResult & { readonly from: string; readonly to: string }> {
  const from = storeAt(fromSpec, '`--from`', call);
  // A mistyped source is not an empty store: "Copied 0 sessions" would hide the typo.
  if (from instanceof FileStore && !isDirectory(from.location)) {
    await from.close();
    throw new SessionError('E_USAGE', `Expected \`--from\` to be an existing store folder, got ${from.location}`);
  }
  const to = storeAt(toSpec, '`--to`', call);
  try {
    if (from.location === to.location)
      throw new SessionError(
        'E_USAGE',
        `Expected \`--from\` and \`--to\` to be two stores, got ${from.location} twice`,
      );
    // The copying process's facts, for sessions holding decisions (marked imported; refused from an agent's shell).
    const origin = () => decisionOriginOf(processFacts());
    return { ...(await copySessions(from, to, origin)), from: from.location, to: to.location };
  } finally {
    await Promise.all([from.close(), to.close()]);
  }
}

// --- internal ---

/**
 * The store the settings select: the file store at the root, else PostgreSQL (databaseStoreOf).
 */
function storeOf(call: Call, config: Config, clock: (() => Date) | undefined): SessionStore {
  const { database_url: url, database_schema: schema } = config;
  // No database configured: the relay is not considered at all (nothing of it is looked at on a file store's call).
  if (url !== null) return databaseStoreOf(url, schema, call.use, call.env);
  return new FileStore(call.root, {
    home: call.home(),
    ...(clock === undefined ? {} : { now: clock }),
    verify: (text, mac) => userSeal(call.env).verify(text, mac),
  });
}

/**
 * The PostgreSQL store of a call that configures one: a command's (and the Agent SDK's) own connection; a hook
 * process's through the local relay (app/relay-client.ts, required on that path only) unless AGENT_SESSION_RELAY=off.
 */
function databaseStoreOf(url: string, schema: string, use: Call['use'], env: Call['env']): SessionStore {
  if (use !== 'hook') return openPgStore(url, schema, WAIT_LIMITS.command);
  // The bin's next code cache then holds the database path too (platform/code-cache-hint.ts).
  noteDatabaseUse();
  if (!relayWanted(env)) return openPgStore(url, schema, WAIT_LIMITS.hook);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the relay's modules load on its path only
  const relay = require('./relay-client') as typeof import('./relay-client');
  return relay.openRelayClient(url, schema, env);
}

/**
 * This user's decision seal (platform/decision-key.ts), loaded on first use: only a path that reads or makes a decision
 * or grant pays for node:crypto and the key's read. One per environment (a process has one).
 */
function userSeal(env: Readonly<Record<string, string | undefined>>): DecisionSeal {
  if (seal === null || seal.env !== env) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:crypto on the paths that judge a decision only
    const key = require('../platform/decision-key') as typeof import('../platform/decision-key');
    seal = { env, seal: key.userDecisionSeal(env) };
  }
  return seal.seal;
}

let seal: { readonly env: Readonly<Record<string, string | undefined>>; readonly seal: DecisionSeal } | null = null;

/** Whether hook processes use the relay: yes unless AGENT_SESSION_RELAY is `off` (or `0`, `false`, `no`). */
function relayWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.AGENT_SESSION_RELAY?.trim().toLowerCase();
  return !(value === 'off' || value === '0' || value === 'false' || value === 'no');
}

/**
 * The store a `copy` argument names: a `postgres://` URL, or a folder (a project's `<folder>/.claude/session` has that
 * folder's project as its home, named by the settings found beside it).
 */
function storeAt(spec: string, where: string, call: Call): FileStore | PgStore {
  const { env, cwd } = call;
  if (/^postgres(ql)?:/i.test(spec.trim()))
    return openPgStore(assertDatabaseUrl(spec, where), call.config.values.database_schema, WAIT_LIMITS.command);
  if (spec.trim() === '')
    throw new SessionError('E_USAGE', `Expected ${where} to be a folder or a postgres:// URL, got nothing`);
  const root = resolveFrom(cwd, spec, where);
  const folder = storeFolderOf(root);
  const home = folder === null ? null : projectIdentityOf(folder, loadConfig(root, env, cwd).values.project).name;
  return new FileStore(root, { home });
}
