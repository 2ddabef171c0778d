// The Claude Code plugin in plugin/ and the marketplace at the repository's root, as `claude plugin` reads them: the
// committed bundles are what the source builds, the hooks are the ones `init` wires, the pinned Claude Code and the
// newest native build validate both strictly (issue 42 item 2: what claude.ai accepts), and the plugin's bins run.
// The real install and plays are the host test's (tests/host/) and the team's (tests/e2e/team.test.ts).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WIRINGS } from '../../src/cli/init/settings';
import { compareVersions, findClaude } from '../host/claude-host';
import { nativeClaude } from '../support/claude-native';

const REPO = resolve(__dirname, '..', '..');
const PLUGIN = join(REPO, 'plugin');
const read = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('the committed plugin bundle', () => {
  it('is exactly what the current source builds', () => {
    const check = spawnSync(process.execPath, ['scripts/build-plugin.mjs', '--check'], { cwd: REPO, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  }, 180_000);

  it('the check names a file that differs', () => {
    const copy = mkdtempSync(join(tmpdir(), 'agent-session-plugin-'));
    cpSync(join(PLUGIN, 'dist'), copy, { recursive: true });
    writeFileSync(join(copy, 'pre-delegate.cjs'), `${readFileSync(join(copy, 'pre-delegate.cjs'), 'utf8')}\n// edited`);
    const check = spawnSync(process.execPath, ['scripts/build-plugin.mjs', '--check', '--out', copy], {
      cwd: REPO,
      encoding: 'utf8',
    });
    rmSync(copy, { recursive: true });
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('pre-delegate.cjs');
    expect(check.stderr).not.toContain('subagent-stop.cjs');
  }, 180_000);
});

describe('the plugin manifest and hooks', () => {
  it('wires exactly the hooks `init` wires, each through the plugin root, quoted', () => {
    const { hooks } = read(join(PLUGIN, 'hooks', 'hooks.json')) as {
      hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout: number }[] }[]>;
    };
    const wired = Object.entries(hooks).flatMap(([event, groups]) =>
      groups.flatMap((g) => g.hooks.map((h) => ({ event, matcher: g.matcher, command: h.command, type: h.type }))),
    );
    expect(wired).toEqual(
      expect.arrayContaining(
        WIRINGS.map((w) => ({
          event: w.event,
          matcher: w.matcher,
          type: 'command',
          command: `sh "\${CLAUDE_PLUGIN_ROOT}/hooks/node.sh" "\${CLAUDE_PLUGIN_ROOT}/dist/${w.bin}.cjs"`,
        })),
      ),
    );
    expect(wired).toHaveLength(WIRINGS.length);
  });

  it('carries the package version everywhere', () => {
    const { version } = read(join(REPO, 'package.json'));
    expect(read(join(PLUGIN, '.claude-plugin', 'plugin.json')).version).toBe(version);
    const market = read(join(REPO, '.claude-plugin', 'marketplace.json')) as {
      plugins: { name: string; source: string; version: string }[];
    };
    expect(market.plugins).toEqual([expect.objectContaining({ name: 'agent-session', source: './plugin', version })]);
  });

  it('has no bin/ folder (claude.ai refuses a plugin with files there): its CLI is the npm package of the same folder', () => {
    expect(existsSync(join(PLUGIN, 'bin'))).toBe(false);
    const manifest = read(join(PLUGIN, 'package.json')) as { bin: Record<string, string>; dependencies?: unknown };
    expect(manifest.bin).toEqual({
      'agent-session': 'dist/agent-session.cjs',
      'pre-delegate': 'dist/pre-delegate.cjs',
      'subagent-stop': 'dist/subagent-stop.cjs',
    });
    expect(manifest.dependencies).toBeUndefined();
    for (const path of Object.values(manifest.bin)) expect(statSync(join(PLUGIN, path)).mode & 0o111).toBe(0o111);
  });

  it('its CLI and hooks run from the plugin folder, through hooks/node.sh as its slash commands run them', () => {
    const { version } = read(join(REPO, 'package.json'));
    const dir = mkdtempSync(join(tmpdir(), 'agent-session-plugin-run-'));
    const run = (name: string, args: string[], input?: string) =>
      spawnSync('sh', [join(PLUGIN, 'hooks', 'node.sh'), join(PLUGIN, 'dist', `${name}.cjs`), ...args], {
        cwd: dir,
        encoding: 'utf8',
        input,
        env: { PATH: process.env.PATH },
      });
    expect(run('agent-session', ['--version']).stdout.trim()).toBe(version);
    const answer = JSON.parse(run('pre-delegate', [], '{"agent_name":"x"}').stdout) as Record<string, unknown>;
    expect(answer).toMatchObject({ should_resume: false });
    rmSync(dir, { recursive: true });
  });
});

describe('the recording command the plugin allows (issue 30, item 9)', () => {
  it('names the plugin’s own CLI by absolute path: an earlier `agent-session` on PATH is neither named nor run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-session-plugin-path-'));
    mkdirSync(join(dir, '.claude'));
    // Another `agent-session` on PATH (the plugin puts none there: it has no bin/ folder).
    const earlier = join(dir, 'earlier');
    mkdirSync(earlier);
    writeFileSync(join(earlier, 'agent-session'), `#!/bin/sh\necho planted >> ${join(dir, 'planted.txt')}\n`, {
      mode: 0o755,
    });
    const env = {
      PATH: `${earlier}:${process.env.PATH ?? ''}`,
      HOME: dir,
      CLAUDE_PROJECT_DIR: dir,
      CLAUDE_PLUGIN_ROOT: PLUGIN,
    };
    const hook = (payload: Record<string, unknown>) =>
      spawnSync(process.execPath, [join(PLUGIN, 'dist', 'pre-delegate.cjs')], {
        cwd: dir,
        encoding: 'utf8',
        env,
        input: JSON.stringify({ session_id: 's', cwd: dir, agent_id: 'a0000000000000009', ...payload }),
      });
    const start = hook({ hook_event_name: 'SubagentStart', agent_type: 'planner' });
    const context = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    const line = context.split('\n').find((l) => l.startsWith('- phase: '))!;
    const command = line.slice('- phase: '.length).replace(/ --phase <.*$/, ' --phase planning');
    expect(command.startsWith(`${process.execPath} ${join(PLUGIN, 'dist', 'agent-session.cjs')} --dir `)).toBe(true);

    const asks = (text: string) =>
      hook({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: text } }).stdout;
    expect(JSON.parse(asks(command)).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
    const bare = command.replace(`${process.execPath} ${join(PLUGIN, 'dist', 'agent-session.cjs')}`, 'agent-session');
    expect(asks(bare)).toBe('');

    // What the allowed text runs, in the Bash tool's PATH: the plugin's CLI, not the planted one.
    const ran = spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8', env });
    expect(ran.status).toBe(0);
    expect(existsSync(join(dir, 'planted.txt'))).toBe(false);
    rmSync(dir, { recursive: true });
  });
});

/** What `claude plugin validate --json` says, in the parts checked here. */
interface Validation {
  success: boolean;
  contents?: { warnings: unknown[]; errors: unknown[] }[];
  provides?: { hooks: { event: string }[]; commands: string[]; bin: string[] };
  hosts?: { declared: { plugin: boolean } };
  directory?: { findings: { code: string }[] } | null;
}

/**
 * Hook events younger than some Claude Code we support: an older build's validator warns "unknown hook event; entry
 * ignored at runtime" for them (2.1.332 of Interrupt), and runs the rest of the plugin.
 */
const EVENT_SINCE: Readonly<Record<string, string>> = { Interrupt: '2.1.335' };

/** The warnings a build may give of our plugin: none, but an event younger than it, which it ignores. */
function expectedWarnings(version: string): string[] {
  return Object.entries(EVENT_SINCE)
    .filter(([event, since]) => WIRINGS.some((w) => w.event === event) && compareVersions(version, since) < 0)
    .map(([event]) => `hooks.${event}: unknown hook event; entry ignored at runtime`);
}

describe.each([
  ['the pinned Claude Code', () => findClaude('pinned')],
  ['the newest native build', () => nativeClaude()],
])('claude plugin validate (%s)', (_which, claude) => {
  const validate = (strict: boolean, dir: string, ...extra: string[]) => {
    const run = spawnSync(
      claude().path,
      ['plugin', 'validate', ...(strict ? ['--strict'] : []), '--json', ...extra, dir],
      {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: mkdtempSync(join(tmpdir(), 'agent-session-validate-')) },
        timeout: 120_000,
      },
    );
    return { run, report: JSON.parse(run.stdout) as Validation };
  };
  // --strict where the build knows every event we wire (the newest: CI holds it there); an older build, without
  // --strict, may warn of nothing but the events it predates.
  const strict = () => expectedWarnings(claude().version).length === 0;

  it('passes for the marketplace', () => {
    const { run, report } = validate(strict(), REPO);
    expect(report.success).toBe(true);
    expect(run.status).toBe(0);
  }, 600_000);

  it('passes for the plugin: its hooks, its two commands, no bin, its hosts declared', () => {
    const { run, report } = validate(strict(), PLUGIN);
    const said = report.contents?.flatMap((c) => [...c.warnings, ...c.errors]) ?? [];
    expect(said.map((w) => (w as { message?: string }).message)).toEqual(expectedWarnings(claude().version));
    expect(report.success).toBe(true);
    expect(run.status).toBe(0);
    const known = WIRINGS.map((w) => w.event).filter(
      (e) => !expectedWarnings(claude().version).some((m) => m.startsWith(`hooks.${e}:`)),
    );
    expect(report.provides?.hooks.map((h) => h.event).sort()).toEqual(known.sort());
    expect(report.provides?.commands.sort()).toEqual(['agent-session:pending', 'agent-session:show']);
    expect(report.provides?.bin).toEqual([]);
    if (report.hosts !== undefined) expect(report.hosts.declared.plugin).toBe(true);
  }, 600_000);
});

describe('the plugin directory checks of the newest native build', () => {
  it('find nothing: an icon, a README, nothing the directory refuses', () => {
    const run = spawnSync(
      nativeClaude().path,
      ['plugin', 'validate', '--strict', '--json', '--profile', 'directory', PLUGIN],
      {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: mkdtempSync(join(tmpdir(), 'agent-session-validate-')) },
        timeout: 120_000,
      },
    );
    const report = JSON.parse(run.stdout) as Validation;
    expect(report.directory?.findings ?? []).toEqual([]);
    expect(report.success).toBe(true);
    expect(run.status).toBe(0);
  }, 600_000);
});
