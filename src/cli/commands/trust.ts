import type { CommandModule } from 'yargs';
import { workspaceTrust, type WorkspaceTrust } from '../../app/call';
import { locationsOf } from '../../app/config-view';
import { recordTrust, revokeTrust, trustEntryOf, trustRecordPath } from '../../app/trust';
import type { Config, ConfigKey } from '../../core/config';
import { maskDatabaseUrl } from '../../core/database-url';
import { SessionError } from '../../core/errors';
import { assertNotAgentShell, decisionOriginOf } from '../../core/origin';
import { processFacts } from '../../platform/process-facts';
import { printJson, withJson, type GlobalArgs } from '../context';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly revoke: boolean;
  readonly status: boolean;
  readonly json: boolean;
}

/**
 * `agent-session trust`: the user's word that the workspace config file's settings that execute, connect or loosen a
 * policy (core/config.ts WORKSPACE_TRUST) may apply, as `direnv allow` (app/trust.ts). It records the file's exact
 * content, so any later change needs trust again. Refused from an AI agent's shell (exit 6): the agent that wrote the
 * file must not vouch for it.
 */
export const trustCommand: CommandModule<GlobalArgs, Args> = {
  command: 'trust',
  describe:
    "Trust this project's config file as it is now, so its notify, database and wider limits apply (--revoke: no longer; --status: say whether)",
  builder: (yargs) =>
    withJson(yargs)
      .option('revoke', { type: 'boolean', default: false, describe: 'Remove the trust recorded for the file' })
      .option('status', { type: 'boolean', default: false, describe: 'Only say whether the file is trusted' }) as never,
  handler: (argv) => {
    const { io } = argv;
    if (argv.revoke && argv.status)
      throw new SessionError('E_USAGE', 'Expected at most one of `--revoke` and `--status`, got both');
    const { root } = locationsOf({ dir: argv.dir, env: io.env, cwd: io.cwd, databaseUrl: argv['database-url'] });
    if (argv.revoke) {
      const { configFile } = locationsOf({ dir: root, env: io.env, cwd: io.cwd });
      const removed = revokeTrust(configFile, io.env);
      if (argv.json) printJson(io, { file: configFile, revoked: removed });
      else
        io.out(
          removed
            ? `No longer trusted: ${escapeControl(configFile)}\n`
            : `Not trusted: ${escapeControl(configFile)} (nothing to revoke)\n`,
        );
      return;
    }
    const file = workspaceTrust(root, io.env, io.cwd);
    if (argv.status) {
      const entry = trustEntryOf(file.path, io.env);
      if (argv.json)
        printJson(io, {
          file: file.path,
          found: file.bytes !== null,
          verdict: file.verdict,
          trusted_at: entry?.trusted_at ?? null,
          needs_trust: file.keys,
          record: trustRecordPath(io.env),
        });
      else io.out(`${statusLine(file, entry?.trusted_at)}\n`);
      return;
    }
    assertNotAgentShell(decisionOriginOf(processFacts()), 'trust');
    if (file.bytes === null)
      throw new SessionError('E_USAGE', `Expected a config file to trust at ${file.path}, got none`);
    const { entry } = recordTrust(file.path, file.bytes, io.env, io.now());
    if (argv.json) {
      printJson(io, { file: file.path, sha256: entry.sha256, trusted_at: entry.trusted_at, applies: file.keys });
      return;
    }
    const applies =
      file.keys.length === 0
        ? 'nothing in it needs trust now (a change to it will, until you trust it again)'
        : `now applies ${file.keys.map((key) => `${key} = ${escapeControl(shown(file.given, key))}`).join('; ')}`;
    io.out(`Trusted ${escapeControl(file.path)} as it is now (sha256 ${entry.sha256.slice(0, 16)}…): ${applies}\n`);
  },
};

// --- internal ---

function statusLine(file: WorkspaceTrust, trustedAt: string | undefined): string {
  const path = escapeControl(file.path);
  if (file.bytes === null) return `No config file at ${path}`;
  const keys = file.keys.map((key) => `\`${key}\``).join(', ');
  if (file.verdict === 'trusted')
    return `Trusted: ${path} (since ${trustedAt ?? '?'})${keys === '' ? '' : `; its ${keys} apply`}`;
  const state = file.verdict === 'changed' ? `Changed since you trusted it at ${trustedAt ?? '?'}` : 'Not trusted';
  const needs =
    keys === '' ? 'nothing in it needs trust' : `its ${keys} are ignored until you run \`agent-session trust\``;
  return `${state}: ${path}; ${needs}`;
}

/** A setting as it may be printed: a database URL masked, a URL's path and query hidden (a webhook's is its secret). */
function shown(given: Partial<Config>, key: ConfigKey): string {
  const value = given[key];
  if (key === 'database_url' && typeof value === 'string') return maskDatabaseUrl(value);
  if (key === 'notify' && typeof value === 'string' && /^https?:\/\//i.test(value)) {
    try {
      return `${new URL(value).origin}/****`;
    } catch {
      return '****';
    }
  }
  return JSON.stringify(value);
}
