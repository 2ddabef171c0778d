import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { errnoCode, ioError } from '../../platform/errno';
import { gitRepositoryOf, realFolder } from '../../platform/git';
import { PRIVATE_DIR } from '../../platform/private-fs';

/**
 * Keeping `.claude/settings.local.json` (init's per-machine hooks) out of git in this clone only: a line in the
 * repository's `.git/info/exclude`, which is not part of the repository (the team's `.gitignore` is not ours to edit).
 * Claude Code adds the file to `.gitignore` itself only when it creates it (anthropics/claude-code#944); init creating
 * it first must see to it.
 */

/** The comment line that marks the entry init adds (and --uninstall removes). */
const MARK = '# agent-session init: per-machine hooks';

/** What an exclude change did. */
export type ExcludeChange = 'added' | 'kept' | 'removed' | 'none';

/**
 * Adds (or with `remove`, removes) the exclude entry of `file` in the repository holding it; nothing outside a
 * repository. @returns what changed and the exclude file's path (null outside a repository)
 * @throws SessionError E_IO when the exclude file cannot be read or written
 */
export function excludeFromGit(
  file: string,
  remove: boolean,
  dryRun: boolean,
): { change: ExcludeChange; path: string | null } {
  const folder = realFolder(dirname(file));
  const repository = gitRepositoryOf(folder);
  if (repository === null) return { change: 'none', path: null };
  const path = excludePath(repository.top);
  if (path === null) return { change: 'none', path: null };
  const pattern = `/${relative(repository.top, join(folder, 'settings.local.json')).split('\\').join('/')}`;
  const entry = `${MARK}\n${pattern}\n`;
  const text = readOrEmpty(path);
  const has = text.includes(entry);
  if (remove) {
    if (!has) return { change: 'none', path };
    if (!dryRun) write(path, () => writeFileSync(path, text.replace(entry, '')));
    return { change: 'removed', path };
  }
  if (has) return { change: 'kept', path };
  if (!dryRun)
    write(path, () => {
      mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR });
      appendFileSync(path, `${text === '' || text.endsWith('\n') ? '' : '\n'}${entry}`);
    });
  return { change: 'added', path };
}

/** `<git dir>/info/exclude` of the repository at `top` (the shared one of a worktree), or null when unknown. */
function excludePath(top: string): string | null {
  const dotGit = join(top, '.git');
  let pointer: string;
  try {
    pointer = readFileSync(dotGit, 'utf8');
  } catch (error) {
    // EISDIR: the usual `.git` folder.
    if (errnoCode(error) === 'EISDIR') return join(dotGit, 'info', 'exclude');
    return null;
  }
  const line = pointer.split('\n').find((candidate) => candidate.startsWith('gitdir:'));
  if (line === undefined) return null;
  const gitDir = resolve(top, line.slice('gitdir:'.length).trim());
  const common = readOrEmpty(join(gitDir, 'commondir')).trim();
  return join(common === '' ? gitDir : resolve(gitDir, common), 'info', 'exclude');
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return '';
    throw ioError(error, 'read', path);
  }
}

function write(path: string, work: () => void): void {
  try {
    work();
  } catch (error) {
    throw ioError(error, 'write', path);
  }
}
