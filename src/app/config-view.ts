import type { Config, EffectiveConfig } from '../core/config';
import { maskDatabaseUrl } from '../core/database-url';
import type { ProjectIdentity } from '../core/project';
import {
  configPathFor,
  logDirFor,
  projectFolderOf,
  projectIdentityOf,
  resolveCall,
  resolveRoot,
  type CallInputs,
  type RootInputs,
  type Settings,
} from './call';

/**
 * What `agent-session config` shows, each part of a call (call.ts) on its own: that command shows a broken
 * configuration beside everything else, so it asks for the parts one by one instead of refusing at the first problem.
 */

/** Where an invocation's files are: the store root, the config file looked for, and the hook log folder. */
export interface Locations {
  readonly root: string;
  readonly configFile: string;
  readonly logDir: string;
}

/**
 * The store root, config file and hook log folder of a call, resolved as the commands and hooks resolve them, without
 * reading the config file (so `config` can show them when that file is broken).
 * @throws SessionError E_IO when a folder on the way cannot be inspected
 */
export function locationsOf(inputs: RootInputs): Locations {
  const root = resolveRoot(inputs);
  return { root, configFile: configPathFor(root, inputs.env, inputs.cwd), logDir: logDirFor(root, inputs.env) };
}

/**
 * The settings a command runs with: defaults ← config file ← environment variables ← `--database-url`.
 * @throws SessionError E_USAGE for an invalid config file, variable or option, E_IO when the file cannot be read
 */
export function configFor(inputs: CallInputs): EffectiveConfig {
  return resolveCall(inputs).config;
}

/**
 * What a hook does with the settings of the folder `root` (Settings): it never sees `--database-url`.
 * @throws SessionError E_IO when the root cannot be inspected
 */
export function hookSettings(where: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string | undefined;
  readonly root: string;
}): Settings {
  return resolveCall({ env: where.env, cwd: where.cwd, dir: where.root, use: 'hook' }).settings;
}

/** The store a configuration selects, as it may be shown (the URL masked). */
export type StoreChoice =
  | { readonly kind: 'files'; readonly root: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string };

/**
 * Which store `config` selects: PostgreSQL when it names a database URL, else the file store at the root.
 * @throws SessionError E_IO when the root cannot be resolved
 */
export function storeChoice(inputs: RootInputs, config: Config): StoreChoice {
  return config.database_url === null
    ? { kind: 'files', root: resolveRoot(inputs) }
    : { kind: 'postgres', url: maskDatabaseUrl(config.database_url), schema: config.database_schema };
}

/**
 * The project of a call (core/project.ts) as `config` names it (see Call.project).
 * @throws SessionError E_IO when the folder's `.git` or git config cannot be read
 */
export function projectOf(inputs: RootInputs, config: Config): ProjectIdentity {
  return projectIdentityOf(projectFolderOf(resolveRoot(inputs), inputs), config.project);
}
