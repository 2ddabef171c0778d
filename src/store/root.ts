import { dirname, join, resolve } from 'node:path';
import { nonEmpty } from '../platform/env';
import { isDirectory } from '../platform/files';

/** Where the store root comes from, most specific first. */
export interface RootInputs {
  /** `--dir` on the command line. */
  readonly dir?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * The store root: `--dir`, else `AGENT_SESSION_DIR`, else `$CLAUDE_PROJECT_DIR/.claude/session`, else the
 * `.claude/session` of the nearest ancestor of `cwd` that has a `.claude/` folder, else `<cwd>/.claude/session`.
 * Only looks; creates nothing.
 */
export function resolveRoot(inputs: RootInputs): string {
  const explicit = nonEmpty(inputs.dir) ?? nonEmpty(inputs.env.AGENT_SESSION_DIR);
  if (explicit) return resolve(inputs.cwd, explicit);
  const project = nonEmpty(inputs.env.CLAUDE_PROJECT_DIR);
  if (project) return join(resolve(inputs.cwd, project), '.claude', 'session');
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
