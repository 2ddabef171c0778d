import { existsSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommandModule } from 'yargs';
import { SessionError } from '../../core/errors';
import { optionalText } from '../args';
import { excludeFromGit } from '../init/git-exclude';
import { localSettingsPath, readSettings, settingsPath, writeSettings, type SettingsFile } from '../init/settings-file';
import {
  forgetOriginal,
  notePluginEnabled,
  originalMatching,
  pluginEnabledByInit,
  rememberOriginal,
  restoreOriginal,
} from '../init/originals';
import { enabledPluginKey, MARKETPLACE, PLUGIN_ID, withoutPlugin, withPluginEnabled } from '../init/plugin-settings';
import { purge } from '../init/purge';
import { marketplaceKnown } from '../init/wiring-facts';
import { statusLineFiles, statusLineOffer } from '../init/status-line';
import { forgetWired, recordWired } from '../../app/wired-projects';
import { textOrNull } from '../../platform/files';
import { eventsOf, knownRows } from '../../core/events';
import { claudeCodeVersion, codexVersion } from '../../platform/host-version';
import type { Host } from '../../core/host';
import {
  HOOK_TIMEOUT_SECONDS,
  addHooks,
  nodeCommand,
  removeHooks,
  type HookBin,
  type Settings,
  type SettingsChange,
} from '../init/settings';
import { logDirFor, projectFolderFor, resolveCall, resolveRoot } from '../../app/call';
import { storePin } from '../../app/store-pin';
import { recordEntryWords } from '../../core/recording-command';
import { isDirectory } from '../../platform/files';
import { markIgnored } from '../../platform/private-fs';
import { migrateStore } from '../../app/postgres';
import {
  codexCommand,
  codexHooksPath,
  codexRulesPath,
  codexRulesText,
  removeCodexRules,
  writeCodexRules,
  type RulesChange,
} from '../init/codex-files';
import {
  opencodePluginPath,
  opencodePluginText,
  removeOpencodePlugin,
  writeOpencodePlugin,
  type PluginChange,
} from '../init/opencode-files';
import { contextFor, textOption, type CliIo, type GlobalArgs } from '../context';
import { escapeControl } from '../text';
import { errnoCode, ioError } from '../../platform/errno';
import { shellQuote } from '../../platform/shell';
import { NO_WORKING_DIRECTORY, resolveFrom } from '../../platform/working-directory';

/** The hosts `init` wires: those whose hooks are commands in a project's file. */
type WiredHost = Exclude<Host, 'agent-sdk' | 'opencode'>;

/**
 * Where `init --host` writes a host's hooks, how its commands read, whether it writes Codex's exec-policy rule, and
 * the program whose `--version` tells which rows the host knows (its name in the texts, and the probe).
 */
const TARGETS: Record<
  WiredHost,
  {
    readonly file: (project: string) => string;
    readonly command: typeof nodeCommand;
    readonly rules: boolean;
    readonly program: { readonly name: string; readonly title: string; readonly version: typeof codexVersion };
  }
> = {
  'claude-code': {
    file: settingsPath,
    command: nodeCommand,
    rules: false,
    program: { name: 'claude', title: 'Claude Code', version: claudeCodeVersion },
  },
  codex: {
    file: codexHooksPath,
    command: codexCommand,
    rules: true,
    program: { name: 'codex', title: 'Codex', version: codexVersion },
  },
};

interface Args extends GlobalArgs {
  readonly project?: string;
  readonly host: WiredHost | 'opencode';
  readonly plugin: boolean;
  readonly 'dry-run': boolean;
  readonly uninstall: boolean;
  readonly purge: boolean;
}

export const initCommand: CommandModule<GlobalArgs, Args> = {
  command: 'init',
  describe:
    "Wire the hooks into a Claude Code project's .claude/settings.local.json, or with --plugin enable the plugin in " +
    "its shared .claude/settings.json, or with --host codex a Codex project's .codex/hooks.json and .codex/rules (or " +
    'remove them; --purge: and everything else of ours); with --database-url, create or upgrade the PostgreSQL store first',
  builder: (yargs) =>
    yargs
      .option('project', textOption('Project folder (default: the current folder)'))
      .option('host', {
        choices: ['claude-code', 'codex', 'opencode'] as const,
        default: 'claude-code' as const,
        describe:
          "The host to wire: Claude Code's .claude/settings.json, the Codex CLI's .codex/hooks.json and rules, or " +
          "opencode's .opencode/plugin/agent-session.js",
      })
      .option('plugin', {
        type: 'boolean',
        default: false,
        describe:
          "Claude Code: enable the agent-session plugin in the project's shared .claude/settings.json (no machine's " +
          "path: each teammate adds the marketplace once) instead of this machine's hooks; with --uninstall, disable it",
      })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Only print what would change' })
      .option('uninstall', {
        type: 'boolean',
        default: false,
        describe: 'Remove the hooks (or the plugin) init added, each settings file given back as it was',
      })
      .option('purge', {
        type: 'boolean',
        default: false,
        describe:
          "With --uninstall: also remove this project's store, logs, backups and .claude/agent-session.json; in the " +
          "last project init wired, this user's agent-session folders too (refused while another project is wired)",
      })
      // init wires a project, whose hooks find their store themselves: --dir is hidden. --database-url is not (above).
      .hide('dir')
      .describe('database-url', 'First create or upgrade this PostgreSQL store (a postgres:// URL)') as never,
  handler: async (argv) => {
    const { io } = argv;
    // An empty --project (an unset variable) would silently wire the current folder.
    const project = projectDir(optionalText(argv.project, '--project'), io.cwd, io.env);
    if (argv.plugin && argv.host !== 'claude-code')
      throw new SessionError(
        'E_USAGE',
        `Expected --plugin with --host claude-code (the plugin is Claude Code's), got --host ${argv.host}`,
      );
    if (argv.purge && (!argv.uninstall || argv['dry-run']))
      throw new SessionError(
        'E_USAGE',
        'Expected --purge with --uninstall and without --dry-run (it removes what it names)',
      );
    const binDir = requireBinDir(io);
    if (argv['database-url'] !== undefined && !argv.uninstall && !argv['dry-run']) {
      // First: a database that cannot be set up leaves the settings file as it was.
      const result = await migrateStore(contextFor(argv).config.values);
      io.out(`PostgreSQL store ready: schema ${result.schema} at version ${result.to}\n`);
      io.out(
        'The hooks use it when AGENT_SESSION_DATABASE_URL is in their environment or `database_url` is in ' +
          '.claude/agent-session.json (init writes neither: the URL may hold a password)\n',
      );
    }
    if (argv.host === 'opencode') {
      // opencode runs a plugin in-process: one file of ours, which loads this installed library.
      const path = opencodePluginPath(project);
      const done = argv.uninstall
        ? removeOpencodePlugin(path, argv['dry-run'])
        : writeOpencodePlugin(path, opencodePluginText(join(binDir, 'index.cjs')), argv['dry-run']);
      io.out(`${escapeControl(pluginLine(done, path, argv['dry-run']))}\n`);
      if (!argv['dry-run']) record(io.env, project, 'opencode', argv.uninstall);
      if (argv.purge) await purge(project, 'opencode', io.env, (line) => io.out(`${escapeControl(line)}\n`));
      if (!argv.uninstall) io.out(`Hourly cleanup, for crontab -e:\n${escapeControl(cronLine(project, binDir))}\n`);
      return;
    }
    const target = TARGETS[argv.host];
    const commands: Record<HookBin, string> = {
      'pre-delegate': target.command(process.execPath, join(binDir, 'pre-delegate.cjs')),
      'subagent-stop': target.command(process.execPath, join(binDir, 'subagent-stop.cjs')),
    };
    const wirings = eventsOf(argv.host);
    const dryRun = argv['dry-run'];
    // Commands of other hooks and paths are the user's text: shown escaped, one line each.
    const say = (line: string): void => io.out(`${escapeControl(line)}\n`);
    // The events the host on the PATH knows (core/events.ts `since`): an older Claude Code takes an unknown event for
    // an invalid setting; an older Codex never fires the row. Uninstalling removes every row, whatever the version.
    const added = argv.uninstall || argv.plugin ? wirings : knownWirings(argv.host, wirings, io.env, say);
    if (argv.host === 'claude-code') {
      const wiring = {
        project,
        commands,
        wirings,
        added,
        uninstall: argv.uninstall,
        dryRun,
        now: io.now(),
        say,
        env: io.env,
      };
      if (argv.plugin && !argv.uninstall) enableClaudePlugin(wiring);
      else wireClaudeCode({ ...wiring, plugin: argv.plugin });
      if (!dryRun) record(io.env, project, 'claude-code', argv.uninstall);
      if (argv.purge) await purge(project, 'claude-code', io.env, say);
      if (!argv.uninstall)
        say(
          statusLineOffer(statusLineFiles(project, io.env.HOME), process.execPath, join(binDir, 'agent-session.cjs')),
        );
      finish(io, project, binDir, argv.uninstall, dryRun);
      return;
    }
    const file = readSettings(target.file(project));
    const before = file.settings ?? {};
    const { settings, changes } = argv.uninstall
      ? removeHooks(before, commands, wirings)
      : addHooks(before, commands, added);
    const changed = changes.some((c) => c.kind === 'added' || c.kind === 'updated' || c.kind === 'removed');
    for (const change of changes) say(describe(change));
    if (target.rules) {
      const rules = codexRulesPath(project);
      // The recording words the Codex hooks' contexts hand a sub-agent (src/hooks/hosts/codex.ts), for the store its
      // hooks resolve (the root, and the database the settings name: the pin). Not `--database-url`: hooks never see it.
      // The project's own store: its hooks find it from the project folder, which the files written here make a project.
      const call = resolveCall({ env: { ...io.env, CLAUDE_PROJECT_DIR: project }, cwd: project });
      const program = [process.execPath, join(binDir, 'agent-session.cjs')];
      const words = recordEntryWords(program, call.root, storePin(call.root, call.config.values));
      const done = argv.uninstall
        ? removeCodexRules(rules, dryRun)
        : writeCodexRules(rules, codexRulesText(words), dryRun, io.now());
      say(rulesLine(done, rules, words));
    }
    if (!changed) {
      say(
        argv.uninstall
          ? `Nothing to remove: ${file.path} has none of these hooks`
          : `Nothing to change: ${file.path} already has the agent-session hooks`,
      );
    } else if (dryRun) {
      say(`Dry run: ${file.path} was not changed`);
    } else {
      const backup = writeSettings(file, settings, io.now());
      say(`Updated ${file.path}${backup === null ? ' (new file)' : ` (backup: ${backup})`}`);
    }
    if (!dryRun) record(io.env, project, argv.host, argv.uninstall);
    if (argv.purge) await purge(project, argv.host, io.env, say);
    finish(io, project, binDir, argv.uninstall, dryRun);
  },
};

/** The rows of `wirings` the host on the PATH of `env` knows (knownRows); each row left out is said, with why. */
function knownWirings(
  host: WiredHost,
  wirings: ReturnType<typeof eventsOf>,
  env: CliIo['env'],
  say: (line: string) => void,
): ReturnType<typeof eventsOf> {
  const { name, title, version } = TARGETS[host].program;
  const found = version(env);
  const added = knownRows(wirings, host, found);
  for (const row of wirings.filter((w) => !added.includes(w)))
    say(
      `Not wiring ${row.event}: it needs ${title} ${row.since?.[host]} or later, and ${found === null ? `no ${name} on the PATH answered \`${name} --version\`` : `the ${name} on the PATH is ${found}`} (run init again after upgrading)`,
    );
  return added;
}

/** Keeps the user's record of the projects init wired (app/wired-projects.ts) in step: purge's guard reads it. */
function record(env: CliIo['env'], project: string, host: Host, uninstall: boolean): void {
  if (uninstall) forgetWired(env, project, host);
  else recordWired(env, project, host);
}

// --- internal ---

/** After the wiring: the store and logs of an earlier version marked ignored by git; the cron line. */
function finish(io: CliIo, project: string, binDir: string, uninstall: boolean, dryRun: boolean): void {
  if (uninstall) return;
  if (!dryRun) {
    // A store and logs an earlier version made (without a .gitignore) are kept out of git from now on.
    const root = resolveRoot({ env: { ...io.env, CLAUDE_PROJECT_DIR: project }, cwd: project });
    for (const folder of [root, logDirFor(root, io.env)]) if (isDirectory(folder)) markIgnored(folder);
  }
  io.out(`Hourly cleanup, for crontab -e:\n${escapeControl(cronLine(project, binDir))}\n`);
}

interface ClaudeWiring {
  readonly project: string;
  readonly commands: Readonly<Record<HookBin, string>>;
  readonly wirings: ReturnType<typeof eventsOf>;
  /** The rows to add: those the Claude Code found knows (all of `wirings` are removed). */
  readonly added: ReturnType<typeof eventsOf>;
  readonly uninstall: boolean;
  readonly dryRun: boolean;
  readonly now: Date;
  readonly say: (line: string) => void;
  readonly env: CliIo['env'];
}

/**
 * Claude Code: the hooks name this machine's node and bins by absolute path, so they go to the per-machine
 * `.claude/settings.local.json` (kept out of git in this clone: git-exclude.ts), never the shared, committed
 * `.claude/settings.json`: a teammate who pulls gets no hooks of ours rather than eight pointing at files they do not
 * have. An earlier init's hooks in settings.json are moved. When the plugin is enabled too, its hooks yield to these
 * (src/hooks/plugin-yield.ts): said, not refused. `--uninstall` removes the hooks from both files, and the plugin's
 * entry when init --plugin wrote it (or `plugin`: whoever did); each file changed goes back to what it was before
 * init first changed it, byte for byte (originals.ts), or loses only our part when someone changed it since; a file
 * left empty (`{}`) and a `.claude/` left empty go.
 */
function wireClaudeCode(w: ClaudeWiring & { readonly plugin: boolean }): void {
  const shared = readSettings(settingsPath(w.project));
  const local = readSettings(localSettingsPath(w.project));
  const moved = removeHooks(shared.settings ?? {}, w.commands, w.wirings);
  const next = w.uninstall
    ? removeHooks(local.settings ?? {}, w.commands, w.wirings)
    : addHooks(local.settings ?? {}, w.commands, w.added);
  const movedAny = moved.changes.length > 0;
  if (movedAny && !w.uninstall)
    w.say(`Moving the hooks out of ${shared.path} (machine-bound paths; each teammate runs init on their machine):`);
  for (const change of moved.changes) w.say(describe(change));
  for (const change of next.changes) w.say(describe(change));
  let sharedNext = moved.settings;
  let pluginOut = false;
  const pluginKey = enabledPluginKey(shared.settings);
  if (w.uninstall && pluginKey !== null) {
    if (w.plugin || pluginEnabledByInit(shared.path)) {
      const out = withoutPlugin(sharedNext);
      sharedNext = out.settings;
      pluginOut = out.changed;
      if (pluginOut) w.say(`- ${shared.path}: enabledPlugins ${PLUGIN_ID}`);
    } else
      w.say(
        `! ${shared.path} enables the agent-session plugin (not by init in this clone: the team's, committed), ` +
          'left alone; `agent-session init --uninstall --plugin` disables it',
      );
  } else if (!w.uninstall && pluginKey !== null)
    w.say(
      `! ${shared.path} enables the agent-session plugin too: where it loads, its hooks yield to these (each event ` +
        'is answered once); to use the plugin alone, `agent-session init --uninstall` then `agent-session init --plugin`',
    );
  const changed = next.changes.some((c) => c.kind === 'added' || c.kind === 'updated' || c.kind === 'removed');
  let localBack: ReturnType<typeof giveBack> = 'unchanged';
  if (!changed && !movedAny && !pluginOut) {
    w.say(
      w.uninstall
        ? `Nothing to remove: ${local.path} and ${shared.path} have none of these hooks`
        : `Nothing to change: ${local.path} already has the agent-session hooks`,
    );
  }
  if (w.dryRun) {
    if (changed || movedAny || pluginOut) w.say(`Dry run: ${local.path} and ${shared.path} were not changed`);
  } else if (w.uninstall) {
    // Each file given back as it was, when taking ours out leaves what init found (also when Claude Code's own
    // `plugin uninstall` took its entry out first and left its empty objects behind).
    giveBack(shared, sharedNext, movedAny || pluginOut, w.now, w.say);
    localBack = giveBack(local, next.settings, changed, w.now, w.say);
    if (pluginOut) notePluginEnabled(shared.path, false);
  } else {
    if (movedAny) {
      rememberOriginal(shared.path);
      w.say(applySettings(shared, moved.settings, w.now));
    }
    if (changed) {
      rememberOriginal(local.path);
      w.say(applySettings(local, next.settings, w.now));
    }
  }
  // Our entry in this clone's .git/info/exclude: there while our hooks are; gone with the file, or when the file is
  // back as it was before init (a file init made that now holds only the user's settings stays out of git).
  const gone = w.dryRun ? local.settings === null || isEmpty(next.settings) : !existsSync(local.path);
  if (!w.uninstall || gone || localBack === 'original') excludeLocal(local, w.uninstall, w.dryRun, w.say);
  if (w.uninstall && !w.dryRun) removeEmptyFolder(dirname(local.path), w.say);
}

/**
 * `init --plugin`: the plugin enabled in the shared `.claude/settings.json` (`enabledPlugins`, nothing of this
 * machine: a teammate's Claude Code finds it through the marketplace they added), what that file held before kept
 * for `--uninstall`; init's own hooks moved out of both settings files (the plugin runs the same ones).
 */
function enableClaudePlugin(w: ClaudeWiring): void {
  const shared = readSettings(settingsPath(w.project));
  const local = readSettings(localSettingsPath(w.project));
  const movedShared = removeHooks(shared.settings ?? {}, w.commands, w.wirings);
  const movedLocal = removeHooks(local.settings ?? {}, w.commands, w.wirings);
  if (movedShared.changes.length + movedLocal.changes.length > 0)
    w.say("Moving init's hooks out (the plugin runs the same ones):");
  for (const change of [...movedShared.changes, ...movedLocal.changes]) w.say(describe(change));
  const enabled = withPluginEnabled(movedShared.settings);
  w.say(
    enabled.changed
      ? `+ ${shared.path}: enabledPlugins ${PLUGIN_ID} (commit it: each teammate adds the marketplace once)`
      : `= ${shared.path}: enabledPlugins ${PLUGIN_ID} (already there)`,
  );
  if (!marketplaceKnown(w.env))
    w.say(
      `! This machine's Claude Code does not know the ${MARKETPLACE} marketplace yet: ` +
        '`claude plugin marketplace add ~/agent-session --scope user` (your copy of agent-session), then the plugin loads',
    );
  const sharedChanged = enabled.changed || movedShared.changes.length > 0;
  const localChanged = movedLocal.changes.length > 0;
  if (w.dryRun) {
    if (sharedChanged || localChanged) w.say(`Dry run: ${local.path} and ${shared.path} were not changed`);
    return;
  }
  if (sharedChanged) {
    rememberOriginal(shared.path);
    w.say(applySettings(shared, enabled.settings, w.now));
  }
  if (enabled.changed) notePluginEnabled(shared.path, true);
  if (localChanged && giveBack(local, movedLocal.settings, true, w.now, w.say) === 'original')
    excludeLocal(local, true, false, w.say);
  else if (localChanged && !existsSync(local.path)) excludeLocal(local, true, false, w.say);
}

/** The local file's entry in this clone's .git/info/exclude: added with our hooks, removed with them. */
function excludeLocal(local: SettingsFile, remove: boolean, dryRun: boolean, say: (line: string) => void): void {
  const done = excludeFromGit(local.path, remove, dryRun);
  if (done.change === 'added') say(`+ ${done.path}: ${local.path} (kept out of git in this clone)`);
  if (done.change === 'removed') say(`- ${done.path}: ${local.path}`);
}

/**
 * Writes what is left of a settings file once ours is out: the file as init first found it when that is what is left
 * (its bytes, or no file: originals.ts), else the settings (removed when empty). `changed`: ours was in it; without
 * that, the file is only given back when it differs from its original in nothing but Claude Code's leftovers.
 * @returns `original` when the file is now as it was before init (there or not), else whether it was written
 */
function giveBack(
  file: SettingsFile,
  settings: Settings,
  changed: boolean,
  now: Date,
  say: (line: string) => void,
): 'original' | 'written' | 'unchanged' {
  const original = originalMatching(file.path, settings);
  if (original !== null) {
    const text = textOrNull(file.path);
    if ('absent' in original ? text === null : text === original.text) forgetOriginal(file.path);
    else {
      restoreOriginal(file.path, original);
      say('absent' in original ? `Removed ${file.path} (init made it)` : `Restored ${file.path} as it was before init`);
    }
    return 'original';
  }
  if (!changed) return 'unchanged';
  forgetOriginal(file.path);
  say(applySettings(file, settings, now));
  return 'written';
}

/** Writes the settings (a backup first), or removes the file when they are left empty (`{}`); says what it did. */
function applySettings(file: SettingsFile, settings: Settings, now: Date): string {
  if (isEmpty(settings) && file.settings !== null) {
    removeFile(file.path);
    return `Removed ${file.path} (nothing else was in it)`;
  }
  const backup = writeSettings(file, settings, now);
  return `Updated ${file.path}${backup === null ? ' (new file)' : ` (backup: ${backup})`}`;
}

function isEmpty(settings: Settings): boolean {
  return Object.keys(settings).length === 0;
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw ioError(error, 'remove', path);
  }
}

/** Removes `.claude/` when uninstalling left it empty (init may have made it). */
function removeEmptyFolder(folder: string, say: (line: string) => void): void {
  try {
    rmdirSync(folder);
    say(`Removed ${folder} (left empty)`);
  } catch (error) {
    const code = errnoCode(error);
    // ENOTDIR: a link in its place, not a folder of ours: left.
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR')
      throw ioError(error, 'remove', folder);
  }
}

/**
 * The crontab line of the hourly cleanup. The node is the one running init, by absolute path: cron's PATH
 * (/usr/bin:/bin) has no nvm or volta node. Every `%` is escaped: cron turns a bare one into a newline.
 */
export function cronLine(project: string, binDir: string, node = process.execPath): string {
  const command = `cd ${shellQuote(project)} && ${shellQuote(node)} ${shellQuote(join(binDir, 'agent-session.cjs'))} cleanup --hours 24`;
  return `0 * * * * ${command.replace(/%/g, '\\%')}`;
}

function rulesLine(change: RulesChange, path: string, words: readonly string[]): string {
  const rule = `allow ${words.map(shellQuote).join(' ')} …`;
  switch (change.kind) {
    case 'added':
      return `+ ${path}: ${rule}`;
    case 'updated':
      return `~ ${path}: ${rule} (rewritten)`;
    case 'replaced':
      return `~ ${path}: ${rule} (it held rules init did not write: ${change.backup === null ? 'a backup would be made' : `backup: ${change.backup}`})`;
    case 'kept':
      return `= ${path}: ${rule} (already there)`;
    case 'removed':
      return `- ${path}`;
    case 'not_ours':
      return `! ${path}: not written by init (its rules are not ours), left alone`;
    case 'absent':
      return `Nothing to remove: no ${path}`;
  }
}

function pluginLine(change: PluginChange, path: string, dryRun: boolean): string {
  const dry = dryRun && (change === 'added' || change === 'updated' || change === 'removed') ? ' (dry run)' : '';
  switch (change) {
    case 'added':
      return `+ ${path}: the opencode plugin${dry}`;
    case 'updated':
      return `~ ${path}: the opencode plugin (rewritten)${dry}`;
    case 'kept':
      return `= ${path}: the opencode plugin (already there)`;
    case 'removed':
      return `- ${path}${dry}`;
    case 'absent':
      return `Nothing to remove: no ${path}`;
    case 'foreign':
      return `! ${path}: not written by agent-session init, left alone`;
  }
}

function describe(change: SettingsChange): string {
  const where = `${change.event}${change.matcher === undefined ? '' : ` [${change.matcher}]`}`;
  switch (change.kind) {
    case 'added':
      return `+ ${where}: ${change.command} (timeout ${HOOK_TIMEOUT_SECONDS} s)`;
    case 'removed':
      return `- ${where}: ${change.command}`;
    case 'updated':
      return `~ ${where}: ${change.command} (the same hook, now with this node)`;
    case 'kept':
      return `= ${where}: ${change.command} (already there)`;
    case 'other':
      return `! ${where}: also runs ${change.command} (another copy of agent-session?), left alone`;
  }
}

function projectDir(raw: string | undefined, cwd: string | undefined, env: CliIo['env']): string {
  if (raw === undefined && cwd === undefined)
    throw new SessionError(
      'E_IO',
      `Expected a working directory to set up as the project, got none: ${NO_WORKING_DIRECTORY}; pass --project`,
    );
  // Default: the folder whose store the commands here use (call.ts projectFolderFor: in a repository, its top or the
  // nearest `.claude/` below it; never ~/.claude), else, outside any repository, the current folder, which init makes
  // a project. From a subfolder, a Claude Code started at the top would never read `<subfolder>/.claude/`.
  const dir =
    raw === undefined && cwd !== undefined
      ? (projectFolderFor(cwd, env) ?? resolveFrom(cwd, '.', '`--project`'))
      : resolveFrom(cwd, raw ?? '.', '`--project`');
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw ioError(error, 'inspect', dir);
    isDir = false;
  }
  // A wrong --project is a bad argument (exit 2), not a missing session (exit 3).
  if (!isDir) throw new SessionError('E_USAGE', `Expected \`--project\` to be an existing folder, got \`${dir}\``);
  return dir;
}

function requireBinDir(io: CliIo): string {
  const dir = io.binDir;
  if (dir === undefined)
    throw new SessionError('E_USAGE', 'init needs the installed bins: run it from dist/agent-session.cjs');
  for (const bin of ['pre-delegate.cjs', 'subagent-stop.cjs']) {
    if (!existsSync(join(dir, bin)))
      throw new SessionError(
        'E_NOT_FOUND',
        `Expected the hook bin \`${join(dir, bin)}\` beside agent-session; run \`npm run build\``,
      );
  }
  return dir;
}
