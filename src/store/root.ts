import { basename, dirname, join, resolve } from 'node:path';
import { SessionError } from '../core/errors';
import { nonEmpty } from '../platform/env';
import { isDirectory } from '../platform/files';
import { NO_WORKING_DIRECTORY, resolveFrom } from '../platform/working-directory';

/** Where the store root comes from, most specific first. */
export interface RootInputs {
  /** `--dir` on the command line. */
  readonly dir?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The working directory; undefined when it cannot be named (removed: see workingDirectory). */
  readonly cwd: string | undefined;
}

/**
 * The store root: `--dir`, else `AGENT_SESSION_DIR`, else `$CLAUDE_PROJECT_DIR/.claude/session`, else the
 * `.claude/session` of the nearest ancestor of `cwd` that has a `.claude/` folder, else `<cwd>/.claude/session`.
 * Only looks; creates nothing. Without a working directory, the folder given as an absolute path still works.
 * @throws SessionError E_IO without a working directory when the folder given is relative or none is given
 */
export function resolveRoot(inputs: RootInputs): string {
  const dir = nonEmpty(inputs.dir);
  const explicit = dir ?? nonEmpty(inputs.env.AGENT_SESSION_DIR);
  if (explicit) return resolveFrom(inputs.cwd, explicit, dir === undefined ? '`AGENT_SESSION_DIR`' : '`--dir`');
  const project = nonEmpty(inputs.env.CLAUDE_PROJECT_DIR);
  if (project) return join(resolveFrom(inputs.cwd, project, '`CLAUDE_PROJECT_DIR`'), '.claude', 'session');
  if (inputs.cwd === undefined)
    throw new SessionError(
      'E_IO',
      `Expected a working directory to find the project's .claude/ from, got none: ${NO_WORKING_DIRECTORY}; ` +
        'run from the project, or name the store with an absolute --dir, AGENT_SESSION_DIR or CLAUDE_PROJECT_DIR',
    );
  return join(findProjectDir(inputs.cwd) ?? resolve(inputs.cwd), '.claude', 'session');
}

/** The nearest ancestor of `start` (itself included) that has a `.claude/` folder, or null. */
export function findProjectDir(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (isDirectory(join(dir, '.claude'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The folder whose store `root` is when it is `<folder>/.claude/session` (the default root of a project), else null (a
 * store elsewhere: AGENT_SESSION_DIR or --dir naming another folder).
 */
export function storeFolderOf(root: string): string | null {
  const claude = dirname(root);
  return basename(root) === 'session' && basename(claude) === '.claude' ? dirname(claude) : null;
}

/**
 * The project folder of a call (core/project.ts): the folder the store root is in (`<folder>/.claude/session`), else,
 * for a store elsewhere, the folder the default root would come from (`CLAUDE_PROJECT_DIR`, else the nearest ancestor
 * of the working directory with a `.claude/` folder, else the working directory), else, without a working directory,
 * the store root itself.
 * @param root the store root already resolved (resolveRoot)
 */
export function projectFolderOf(root: string, inputs: Omit<RootInputs, 'dir'>): string {
  const own = storeFolderOf(root);
  if (own !== null) return own;
  const project = nonEmpty(inputs.env.CLAUDE_PROJECT_DIR);
  if (project) return resolveFrom(inputs.cwd, project, '`CLAUDE_PROJECT_DIR`');
  if (inputs.cwd === undefined) return root;
  return findProjectDir(inputs.cwd) ?? resolve(inputs.cwd);
}
