import { remoteUrlOf } from '../../../src/core/git-config';
import {
  assertProjectName,
  normalizeRemoteUrl,
  pathProjectName,
  remoteProjectName,
  withProject,
} from '../../../src/core/project';
import { newSession } from '../../../src/core/session';
import { parseState } from '../../../src/core/state';
import { codeOf } from '../../helpers';

describe('normalizeRemoteUrl: one name for every form of one repository', () => {
  it.each([
    'git@github.com:acme/api.git',
    'git@github.com:acme/api',
    'github.com:acme/api.git',
    'ssh://git@github.com/acme/api.git',
    'ssh://git@github.com:22/acme/api',
    'git+ssh://git@github.com/acme/api.git/',
    'https://github.com/acme/api',
    'https://github.com/acme/api.git',
    'https://user:token@GitHub.COM/acme/api.git',
    'https://x-access-token:ghs_abc@github.com:443/acme/api.git?ref=main#frag',
    'git://github.com/acme/api.git',
    'http://github.com//acme//api/',
  ])('%s is github.com/acme/api (no scheme, user, password or port)', (url) => {
    expect(normalizeRemoteUrl(url)).toBe('github.com/acme/api');
  });

  it('never keeps a credential', () => {
    for (const url of ['https://alice:s3cret@example.com/a/b.git', 'ssh://alice:s3cret@example.com:2222/a/b'])
      expect(normalizeRemoteUrl(url)).toBe('example.com/a/b');
  });

  it('keeps the path of a group and its case (hosts differ on it), an IPv6 host without brackets', () => {
    expect(normalizeRemoteUrl('git@gitlab.com:group/sub/Repo.git')).toBe('gitlab.com/group/sub/Repo');
    expect(normalizeRemoteUrl('ssh://git@[::1]:2222/team/repo.git')).toBe('::1/team/repo');
    expect(normalizeRemoteUrl('git@[fe80::1]:team/repo.git')).toBe('fe80::1/team/repo');
  });

  it('names a local repository by its path, and a remote helper by its address', () => {
    expect(normalizeRemoteUrl('/srv/git/api.git')).toBe('file:/srv/git/api');
    expect(normalizeRemoteUrl('file:///srv/git/api.git')).toBe('file:/srv/git/api');
    expect(normalizeRemoteUrl('file://localhost/srv/git/api')).toBe('file:/srv/git/api');
    expect(normalizeRemoteUrl('codecommit::https://git-codecommit.eu-west-1.amazonaws.com/v1/repos/api')).toBe(
      'git-codecommit.eu-west-1.amazonaws.com/v1/repos/api',
    );
  });

  it.each(['', '   ', '../api', './api', 'api', 'https://github.com', 'https://github.com/', 'ssh://', '/'])(
    '%p names no repository portably (null)',
    (url) => {
      expect(normalizeRemoteUrl(url)).toBeNull();
    },
  );
});

describe('project names', () => {
  it('add the folder inside the repository after `//` when it is not the top', () => {
    expect(remoteProjectName('github.com/acme/api', '')).toBe('github.com/acme/api');
    expect(remoteProjectName('github.com/acme/mono', 'services/api')).toBe('github.com/acme/mono//services/api');
    expect(remoteProjectName('github.com/acme/mono', './services//api/')).toBe('github.com/acme/mono//services/api');
    expect(pathProjectName('/home/me/proj')).toBe('path:/home/me/proj');
  });

  it.each([[''], ['  '], [' lead'], ['trail '], ['a\nb'], ['bidi\u202eover'], ['x'.repeat(201)], [42], [null]])(
    'a configured name %p is refused (E_USAGE)',
    (name) => {
      expect(codeOf(() => assertProjectName(name, '`project`'))).toBe('E_USAGE');
    },
  );

  it('a configured name of ordinary text is taken as it is', () => {
    expect(assertProjectName('acme/api (team infra)', '`project`')).toBe('acme/api (team infra)');
    expect(assertProjectName('x'.repeat(200), '`project`')).toHaveLength(200);
  });
});

describe('withProject: the field and the schema_version it needs', () => {
  const now = new Date('2026-01-08T18:00:00.000Z');
  const plain = newSession({ agent_id: 's1', agent_name: 'a', purpose: 'p' }, now);

  it('adds the project with version 5, and removes it back to the version the rest needs', () => {
    const owned = withProject(plain, 'github.com/acme/api');
    expect(owned).toMatchObject({ project: 'github.com/acme/api', schema_version: 5 });
    expect(parseState(owned)).toEqual(owned);
    expect(withProject(owned, undefined)).toEqual(plain);
    // The key order of the file an older version wrote is kept.
    expect(JSON.stringify(withProject(owned, undefined))).toBe(JSON.stringify(plain));
    expect(withProject(plain, undefined)).toBe(plain);
  });

  it('a new session of a project is version 5; a file saying 1 with a project is refused', () => {
    const made = newSession({ agent_id: 's2', agent_name: 'a', purpose: 'p', project: 'acme' }, now);
    expect(made).toMatchObject({ schema_version: 5, project: 'acme' });
    expect(codeOf(() => parseState({ ...made, schema_version: 1 }))).toBe('E_CORRUPT');
    expect(codeOf(() => parseState({ ...plain, schema_version: 5 }))).toBe('E_CORRUPT');
    expect(codeOf(() => parseState({ ...made, schema_version: 4 }))).toBe('E_CORRUPT');
    expect(codeOf(() => parseState({ ...made, project: '' }))).toBe('E_CORRUPT');
  });
});

describe('remoteUrlOf: the origin URL of a git config, as git reads it', () => {
  it('reads what `git remote add` writes', () => {
    const text =
      '[core]\n\trepositoryformatversion = 0\n\tbare = false\n' +
      '[remote "upstream"]\n\turl = git@github.com:other/api.git\n' +
      '[remote "origin"]\n\turl = git@github.com:acme/api.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n' +
      '[branch "main"]\n\tremote = origin\n';
    expect(remoteUrlOf(text)).toBe('git@github.com:acme/api.git');
    expect(remoteUrlOf(text, 'upstream')).toBe('git@github.com:other/api.git');
  });

  it('follows the syntax: case-insensitive keys and section, quotes, escapes, comments, continued lines', () => {
    expect(remoteUrlOf('[REMOTE "origin"]\n  URL = "https://h/a b.git" ; a comment\n')).toBe('https://h/a b.git');
    expect(remoteUrlOf('[remote "origin"] url = https://h/inline.git\n')).toBe('https://h/inline.git');
    expect(remoteUrlOf('[remote.origin]\nurl = https://h/old-style.git # comment\n')).toBe('https://h/old-style.git');
    expect(remoteUrlOf('[remote "origin"]\n\turl = https://h/\\\n\tsplit.git\n')).toBe('https://h/\tsplit.git');
    expect(remoteUrlOf('[remote "origin"]\n\turl = "https://h/q\\"uote.git"\n')).toBe('https://h/q"uote.git');
    expect(remoteUrlOf('\uFEFF[remote "origin"]\r\n\turl = https://h/crlf.git\r\n')).toBe('https://h/crlf.git');
  });

  it('takes the first of several urls, and none from another remote or a subsection of another case', () => {
    expect(remoteUrlOf('[remote "origin"]\nurl = https://h/1.git\nurl = https://h/2.git\n')).toBe('https://h/1.git');
    expect(remoteUrlOf('[remote "Origin"]\nurl = https://h/x.git\n')).toBeNull();
    expect(remoteUrlOf('[remote "fork"]\nurl = https://h/x.git\n[core]\nurl = https://h/y.git\n')).toBeNull();
    expect(remoteUrlOf('[remote "origin"]\n\tfetch = +refs/heads/*\n\turl\n')).toBeNull();
    expect(remoteUrlOf('')).toBeNull();
  });
});
