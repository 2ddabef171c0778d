import { counted } from './plural';

/**
 * `agent-session doctor`'s rules: each check judges facts gathered by the command (files read, a node asked its
 * version, the store opened) and says ok, warn or fail, with what to do. Pure: no file, no process, no clock.
 */

/** A check's verdict: `fail` makes doctor exit 1; `warn` is said and exits 0. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One line of doctor's output. */
export interface Check {
  readonly name: string;
  readonly status: CheckStatus;
  /** What was found. */
  readonly text: string;
  /** What to do, when not ok. */
  readonly fix?: string;
}

/** A settings file of the project, as doctor found it. */
export type SettingsFacts =
  | { readonly path: string; readonly state: 'absent' }
  | { readonly path: string; readonly state: 'broken'; readonly problem: string }
  | {
      readonly path: string;
      readonly state: 'read';
      /** The events whose hooks run a bin of ours (pre-delegate.cjs, subagent-stop.cjs). */
      readonly events: readonly string[];
      /** The bins of ours those hooks name that do not exist (the copy moved or removed). */
      readonly missingBins: readonly string[];
      /** Whether it enables the agent-session plugin (`enabledPlugins`). */
      readonly plugin: boolean;
    };

/** What the wiring check judges: Claude Code's two project settings files, and the other hosts' files of ours. */
export interface WiringFacts {
  readonly files: readonly SettingsFacts[];
  /** The events init wires for Claude Code (src/core/events.ts). */
  readonly expectedEvents: readonly string[];
  /** Whether this user's Claude Code knows the agent-session marketplace; null when it cannot be told (no HOME). */
  readonly marketplaceKnown: boolean | null;
  /** Other hosts' wiring of ours found in the project (`.codex/hooks.json`, opencode's plugin file). */
  readonly otherHosts: readonly string[];
}

/**
 * The wiring and double-wiring checks: a settings file that cannot be read fails (Claude Code ignores it, and the
 * hooks in it with it); no wiring at all fails; init's hooks and the plugin both warn (the plugin's hooks yield to
 * init's, src/hooks/plugin-yield.ts, but one of them is left over); a hook whose bin is gone fails; an event init wires
 * that none of its hooks answers warns.
 */
export function wiringChecks(facts: WiringFacts): Check[] {
  const checks: Check[] = [];
  for (const file of facts.files)
    if (file.state === 'broken')
      checks.push({
        name: 'settings',
        status: 'fail',
        text: `${file.path} cannot be read: ${file.problem}`,
        fix: 'fix or remove that file (Claude Code ignores a broken settings file, our hooks with it)',
      });
  const read = facts.files.filter((f) => f.state === 'read');
  const hooked = read.filter((f) => f.events.length > 0);
  const plugin = read.filter((f) => f.plugin);
  if (hooked.length === 0 && plugin.length === 0) {
    if (facts.otherHosts.length > 0)
      checks.push({ name: 'wiring', status: 'ok', text: `wired for ${facts.otherHosts.join(', ')}` });
    else if (checks.length === 0)
      checks.push({
        name: 'wiring',
        status: 'fail',
        text: 'no hooks of ours and no plugin in this project',
        fix: '`agent-session init` (this machine) or `agent-session init --plugin` (the team, committed)',
      });
    return checks;
  }
  if (hooked.length > 0 && plugin.length > 0)
    checks.push({
      name: 'double-wiring',
      status: 'warn',
      text:
        `init's hooks in ${hooked.map((f) => f.path).join(' and ')} and the plugin enabled in ` +
        `${plugin.map((f) => f.path).join(' and ')}: the plugin's hooks yield to init's, one of them is left over`,
      fix: 'keep one: `agent-session init --uninstall` (the plugin alone) or `agent-session init --uninstall --plugin` (the hooks alone)',
    });
  const missingBins = [...new Set(hooked.flatMap((f) => f.missingBins))];
  const events = new Set(hooked.flatMap((f) => f.events));
  const missingEvents = facts.expectedEvents.filter((e) => !events.has(e));
  if (missingBins.length > 0)
    checks.push({
      name: 'wiring',
      status: 'fail',
      text: `the hooks run ${missingBins.join(', ')}, which ${missingBins.length === 1 ? 'does' : 'do'} not exist`,
      fix: '`agent-session init` again from the copy you use now (it replaces the old paths)',
    });
  else if (hooked.length > 0 && missingEvents.length > 0)
    checks.push({
      name: 'wiring',
      status: 'warn',
      text: `init's hooks in ${hooked.map((f) => f.path).join(', ')} miss ${missingEvents.join(', ')}`,
      fix: '`agent-session init` again (it adds what an earlier version did not wire)',
    });
  else if (hooked.length > 0)
    checks.push({
      name: 'wiring',
      status: 'ok',
      text: `init's hooks in ${hooked.map((f) => f.path).join(', ')} (${counted(events.size, 'event')})`,
    });
  if (hooked.length === 0 && facts.marketplaceKnown === false)
    checks.push({
      name: 'wiring',
      status: 'warn',
      text: `the plugin is enabled in ${plugin.map((f) => f.path).join(', ')}, but this machine's Claude Code does not know its marketplace`,
      fix: '`claude plugin marketplace add ~/agent-session --scope user` (your copy of agent-session)',
    });
  else if (hooked.length === 0)
    checks.push({
      name: 'wiring',
      status: 'ok',
      text: `the plugin, enabled in ${plugin.map((f) => f.path).join(', ')}`,
    });
  return checks;
}

/** A node the hooks run, and what it said its version was (null: it could not be run). */
export interface NodeFacts {
  /** Where it comes from: `init's hooks` (an absolute path), `the plugin (node on PATH)`. */
  readonly source: string;
  readonly node: string;
  readonly version: string | null;
}

/** The oldest Node the hooks run on (package.json `engines`). */
export const MIN_NODE_MAJOR = 20;

/** One check per node the hooks find: it runs, and it is Node 20 or newer. */
export function nodeChecks(nodes: readonly NodeFacts[]): Check[] {
  return nodes.map(({ source, node, version }) => {
    if (version === null)
      return {
        name: 'node',
        status: 'fail',
        text: `${source}: ${node} does not run`,
        fix:
          source.includes('PATH') || node === 'node'
            ? `install Node ${MIN_NODE_MAJOR}+ where Claude Code's PATH finds it`
            : '`agent-session init` again with the node you use now (it names it by absolute path)',
      };
    const major = Number(/^v?(\d+)\./.exec(version)?.[1] ?? NaN);
    if (!(major >= MIN_NODE_MAJOR))
      return {
        name: 'node',
        status: 'fail',
        text: `${source}: ${node} is ${version}`,
        fix: `Node ${MIN_NODE_MAJOR} or newer, then \`agent-session init\` again`,
      };
    return { name: 'node', status: 'ok', text: `${source}: ${node} ${version}` };
  });
}

/** The store, as doctor found it. */
export type StoreFacts =
  | { readonly state: 'config-invalid'; readonly problem: string }
  | { readonly state: 'absent'; readonly where: string }
  | { readonly state: 'unreadable'; readonly where: string; readonly problem: string }
  | {
      readonly state: 'open';
      readonly where: string;
      readonly sessions: number;
      /** null when it cannot be told without writing (PostgreSQL). */
      readonly writable: boolean | null;
    };

/** The store check: it opens, how many sessions it holds, and whether this user may write to it. */
export function storeCheck(facts: StoreFacts): Check {
  switch (facts.state) {
    case 'config-invalid':
      return {
        name: 'store',
        status: 'fail',
        text: `the configuration is invalid: ${facts.problem}`,
        fix: '`agent-session config` shows each setting and where it comes from',
      };
    case 'absent':
      return { name: 'store', status: 'ok', text: `${facts.where}: no session yet (the first hook makes it)` };
    case 'unreadable':
      return {
        name: 'store',
        status: 'fail',
        text: `${facts.where} cannot be opened: ${facts.problem}`,
        fix: 'see docs/troubleshooting.md#the-store',
      };
    case 'open':
      if (facts.writable === false)
        return {
          name: 'store',
          status: 'fail',
          text: `${facts.where}: ${counted(facts.sessions, 'session')}, not writable by this user`,
          fix: 'give this user write access to it (the hooks record nothing meanwhile)',
        };
      return { name: 'store', status: 'ok', text: `${facts.where}: ${counted(facts.sessions, 'session')}` };
  }
}

/** The workspace config file's trust (app/call.ts workspaceTrust, docs/security.md). */
export interface TrustFacts {
  readonly path: string;
  readonly found: boolean;
  /** Its settings that apply only once trusted (notify, the database, raised limits). */
  readonly keys: readonly string[];
  readonly verdict: 'trusted' | 'untrusted' | 'changed';
}

/**
 * The trust check: a config file whose sensitive settings are not trusted (never, or changed since) warns: they are
 * ignored, and the rest of the set-up works without them.
 */
export function trustCheck(facts: TrustFacts): Check {
  if (!facts.found) return { name: 'trust', status: 'ok', text: `no config file (${facts.path})` };
  if (facts.keys.length === 0)
    return { name: 'trust', status: 'ok', text: `${facts.path}: no setting in it needs trust` };
  const keys = facts.keys.join(', ');
  if (facts.verdict === 'trusted') return { name: 'trust', status: 'ok', text: `${facts.path}: trusted (${keys})` };
  return {
    name: 'trust',
    status: 'warn',
    text:
      `${facts.path}${facts.verdict === 'changed' ? ' changed since you trusted it' : ' is not trusted'}: ` +
      `its ${keys} ${facts.keys.length === 1 ? 'is' : 'are'} ignored`,
    fix: 'read the file, then `agent-session trust` in your own terminal (docs/security.md)',
  };
}

/** The relay of the PostgreSQL hooks, as `relay status` sees it; `unused` without a database. */
export type RelayFacts =
  | { readonly state: 'unused' }
  | { readonly state: 'off' }
  | { readonly state: 'stopped'; readonly why: string }
  | { readonly state: 'running'; readonly pid: number; readonly lastError: string | null };

/** The relay check: not running is fine (the first hook starts it), its last error warns. */
export function relayCheck(facts: RelayFacts): Check {
  switch (facts.state) {
    case 'unused':
      return { name: 'relay', status: 'ok', text: 'not used (the file store)' };
    case 'off':
      return { name: 'relay', status: 'ok', text: 'off (AGENT_SESSION_RELAY=off: each hook connects directly)' };
    case 'stopped':
      return { name: 'relay', status: 'ok', text: `not running (${facts.why}); the first hook starts it` };
    case 'running':
      return facts.lastError === null
        ? { name: 'relay', status: 'ok', text: `running, pid ${facts.pid}` }
        : {
            name: 'relay',
            status: 'warn',
            text: `running, pid ${facts.pid}; its last error: ${facts.lastError}`,
            fix: '`agent-session relay stop` (the next hook starts a fresh one); docs/relay.md',
          };
  }
}

/** A hook's error line, as the log has it: when, which file, the line after its time. */
export interface HookError {
  readonly at: Date;
  readonly file: string;
  readonly line: string;
}

/**
 * The error lines of a hook log (`<ISO time> <host> event=… error=…`, src/hooks/answer.ts) written in the `hours`
 * before `now`, oldest first. Lines without a time or an `error` are not errors.
 */
export function recentHookErrors(file: string, text: string, now: Date, hours = 24): HookError[] {
  const since = now.getTime() - hours * 3_600_000;
  const found: HookError[] = [];
  for (const raw of text.split('\n')) {
    const space = raw.indexOf(' ');
    if (space < 0 || !/ error(=|$)/.test(raw)) continue;
    const at = new Date(raw.slice(0, space));
    if (Number.isNaN(at.getTime()) || at.getTime() < since) continue;
    found.push({ at, file, line: raw.slice(space + 1) });
  }
  return found;
}

/** The recent hook errors check: none is ok; any warns, naming how many and the last one. */
export function hookErrorsCheck(errors: readonly HookError[], logDir: string, hours = 24): Check {
  if (errors.length === 0) return { name: 'hook-errors', status: 'ok', text: `none in the last ${hours} h` };
  const last = [...errors].sort((a, b) => a.at.getTime() - b.at.getTime()).at(-1)!;
  return {
    name: 'hook-errors',
    status: 'warn',
    text: `${counted(errors.length, 'error')} in the last ${hours} h; the last, ${last.at.toISOString()} in ${last.file}: ${last.line}`,
    fix: `the lines with error= in ${logDir}; docs/troubleshooting.md#hook-errors`,
  };
}

/** doctor's exit: 1 when a check failed, else 0 (warnings included). */
export function doctorExit(checks: readonly Check[]): 0 | 1 {
  return checks.some((c) => c.status === 'fail') ? 1 : 0;
}
