import { relative } from 'node:path';
import { remoteUrlOf } from '../core/git-config';
import { normalizeRemoteUrl, pathProjectName, remoteProjectName, type ProjectIdentity } from '../core/project';
import { gitRepositoryOf, realFolder } from '../platform/git';

/**
 * The project a folder is (core/project.ts): the configured name when there is one; else the git remote `origin` of
 * the repository holding the folder (its config read directly: no git process on a hook's path), with the folder's
 * place in the repository; else the folder's real path.
 * @param folder the project folder (store/root.ts projectFolderOf)
 * @param configured the `project` setting (config file, AGENT_SESSION_PROJECT), or null
 * @throws SessionError E_IO when a `.git` or its config exists but cannot be read
 */
export function projectIdentityOf(folder: string, configured: string | null): ProjectIdentity {
  if (configured !== null) return { name: configured, source: { kind: 'configured' } };
  const real = realFolder(folder);
  const repository = gitRepositoryOf(real);
  const url = repository === null || repository.config === null ? null : remoteUrlOf(repository.config);
  const remote = url === null ? null : normalizeRemoteUrl(url);
  if (repository !== null && remote !== null)
    return {
      name: remoteProjectName(remote, relative(repository.top, real)),
      source: { kind: 'remote', repository: remote },
    };
  return { name: pathProjectName(real), source: { kind: 'path' } };
}
