import { SessionError } from '../../core/errors';
import { eventsOf, type EventRow, type HookBin } from '../../core/events';

/** The two hook bins `init` wires (src/core/events.ts: both answer every host event alike). */
export type { HookBin };

/** One hook registration: an event, an optional tool matcher, and the bin that answers it (a row of core/events.ts). */
export type Wiring = Pick<EventRow, 'event' | 'matcher' | 'bin'>;

/**
 * What `init` adds to `.claude/settings.json` (and the plugin wires: scripts/build-plugin.mjs writes its
 * hooks/hooks.json from the same rows): the rows of src/core/events.ts that name Claude Code. Another host's wiring is
 * its rows (`eventsOf`): with `--host codex`, the OpenAI Codex CLI's `.codex/hooks.json` (0.169.0: the same file shape
 * as Claude Code's settings `hooks`).
 */
export const WIRINGS: readonly Wiring[] = eventsOf('claude-code');

/**
 * Seconds Claude Code waits for one of our hooks. A hook gives up on stdin after 5 s and on a session lock
 * after 5 s, so it answers well within this; the explicit value replaces Claude Code's 600 s default.
 */
export const HOOK_TIMEOUT_SECONDS = 30;

/** One line of what changed (or would change, or was found). */
export interface SettingsChange {
  /** `updated`: our hook of the same install, written by an earlier init with another node, now runs this one. */
  readonly kind: 'added' | 'updated' | 'removed' | 'kept' | 'other';
  readonly event: string;
  readonly matcher?: string;
  readonly command: string;
}

/** Parsed settings: a JSON object; every key we do not manage is carried over untouched. */
export type Settings = Readonly<Record<string, unknown>>;

type Group = Record<string, unknown> & { hooks?: unknown };

/**
 * The settings with our hooks added, each in its own matcher group after the existing ones. A hook that is
 * already there (same event, matcher and command) is kept, so a second run changes nothing.
 * @throws SessionError E_CORRUPT when `hooks`, an event's list or a group is not of the documented shape
 */
export function addHooks(
  settings: Settings,
  commands: Readonly<Record<HookBin, string>>,
  wirings: readonly Wiring[] = WIRINGS,
): { settings: Settings; changes: SettingsChange[] } {
  const hooks = { ...hooksOf(settings) };
  const changes: SettingsChange[] = [];
  for (const wiring of wirings) {
    const command = commands[wiring.bin];
    const where = { event: wiring.event, ...(wiring.matcher === undefined ? {} : { matcher: wiring.matcher }) };
    let updated = false;
    const groups = groupsOf(hooks, wiring.event).map((group) => {
      const handlers = handlersOf(group, wiring.event);
      if (!handlers.some((h) => isEarlierForm(h, command))) return group;
      updated = true;
      return { ...group, hooks: handlers.map((h) => (isEarlierForm(h, command) ? { ...(h as object), command } : h)) };
    });
    if (updated) {
      hooks[wiring.event] = groups;
      changes.push({ kind: 'updated', ...where, command });
      continue;
    }
    // Our handler under a matcher no wiring of ours has now (an earlier version's: PreToolUse `Task|Agent` before
    // SendMessage): taken out of that group (a user's handlers in it stay) and wired again below under today's, or
    // the event would start the same hook twice for one call.
    const current = new Set(
      wirings.filter((w) => w.event === wiring.event && commands[w.bin] === command).map((w) => w.matcher ?? ''),
    );
    const stale = (group: Group): boolean =>
      !current.has(String(group.matcher ?? '')) && handlersOf(group, wiring.event).some((h) => isOurs(h, command));
    const moved = groups.some(stale);
    if (moved) {
      hooks[wiring.event] = groups.flatMap((group) => {
        if (!stale(group)) return [group];
        const others = handlersOf(group, wiring.event).filter((h) => !isOurs(h, command));
        return others.length === 0 ? [] : [{ ...group, hooks: others }];
      });
    }
    const left = groupsOf(hooks, wiring.event);
    const present = left.some(
      (group) =>
        (group.matcher ?? '') === (wiring.matcher ?? '') &&
        handlersOf(group, wiring.event).some((h) => isOurs(h, command)),
    );
    for (const other of otherCopies(left, wiring, command)) changes.push({ kind: 'other', ...where, command: other });
    if (present) {
      changes.push({ kind: moved ? 'updated' : 'kept', ...where, command });
      continue;
    }
    hooks[wiring.event] = [
      ...left,
      {
        ...(where.matcher === undefined ? {} : { matcher: where.matcher }),
        hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }],
      },
    ];
    changes.push({ kind: moved ? 'updated' : 'added', ...where, command });
  }
  return { settings: { ...settings, hooks }, changes };
}

/**
 * The settings without the hooks `addHooks` adds for these commands: only handlers running exactly our
 * commands go; a group left empty goes with them, then an event left empty, then `hooks` if left empty.
 * @throws SessionError E_CORRUPT as addHooks
 */
export function removeHooks(
  settings: Settings,
  commands: Readonly<Record<HookBin, string>>,
  wirings: readonly Wiring[] = WIRINGS,
): { settings: Settings; changes: SettingsChange[] } {
  if (!('hooks' in settings)) return { settings, changes: [] };
  const hooks: Record<string, unknown> = { ...hooksOf(settings) };
  const changes: SettingsChange[] = [];
  for (const wiring of wirings) {
    if (!(wiring.event in hooks)) continue;
    const command = commands[wiring.bin];
    let removedHere = false;
    const groups = groupsOf(hooks, wiring.event).flatMap((group) => {
      const handlers = handlersOf(group, wiring.event);
      const kept = handlers.filter((h) => !isOurs(h, command) && !isEarlierForm(h, command));
      if (kept.length === handlers.length) return [group];
      removedHere = true;
      changes.push({
        kind: 'removed',
        event: wiring.event,
        ...(typeof group.matcher === 'string' ? { matcher: group.matcher } : {}),
        command,
      });
      return kept.length === 0 ? [] : [{ ...group, hooks: kept }];
    });
    if (!removedHere) continue;
    if (groups.length === 0) delete hooks[wiring.event];
    else hooks[wiring.event] = groups;
  }
  if (changes.length === 0) return { settings, changes };
  const next: Record<string, unknown> = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return { settings: next, changes };
}

/**
 * `"<node>" "<path>"`: the shell form, quoted for sh and Git Bash (paths may hold spaces). The node is named by
 * absolute path, as in the cron line: Claude Code started from a desktop launcher has no nvm or volta PATH.
 */
export function nodeCommand(node: string, path: string): string {
  return `${doubleQuoted(node)} ${doubleQuoted(path)}`;
}

// --- internal ---

function hooksOf(settings: Settings): Record<string, unknown> {
  const hooks = settings.hooks;
  if (hooks === undefined) return {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new SessionError('E_CORRUPT', `Expected \`hooks\` in settings.json to be an object, got ${kindOf(hooks)}`);
  }
  return hooks as Record<string, unknown>;
}

function groupsOf(hooks: Record<string, unknown>, event: string): Group[] {
  const groups = hooks[event];
  if (groups === undefined) return [];
  if (!Array.isArray(groups)) {
    throw new SessionError(
      'E_CORRUPT',
      `Expected \`hooks.${event}\` in settings.json to be a list of matcher groups, got ${kindOf(groups)}`,
    );
  }
  const bad = groups.findIndex((g) => typeof g !== 'object' || g === null || Array.isArray(g));
  if (bad >= 0) {
    const where = `\`hooks.${event}[${bad}]\` in settings.json`;
    throw new SessionError(
      'E_CORRUPT',
      `Expected ${where} to be a matcher group (an object), got ${kindOf(groups[bad])}`,
    );
  }
  return groups as Group[];
}

function handlersOf(group: Group, event: string): unknown[] {
  if (group.hooks === undefined) return [];
  if (!Array.isArray(group.hooks))
    throw new SessionError(
      'E_CORRUPT',
      `Expected each \`hooks.${event}[].hooks\` in settings.json to be a list, got ${kindOf(group.hooks)}`,
    );
  return group.hooks;
}

/**
 * The kind of a settings value (`an array`, `a string`, …), never the value itself: settings.json holds secrets
 * (API keys in `env`), and an error message must not print them.
 */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function doubleQuoted(text: string): string {
  return `"${text.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
}

/**
 * The bin a command of ours runs: its last double-quoted word (`node "<path>"`, `"<node>" "<path>"`), before the
 * host argument of a Codex wiring (`… "<path>" --host codex`).
 */
function binOf(command: string): string | undefined {
  return /"((?:[^"\\]|\\.)*)"(?: --host [a-z-]+)?$/.exec(command)?.[1];
}

/** A handler an earlier init of this same install wrote in another form (`node "<path>"`, another node). */
function isEarlierForm(handler: unknown, command: string): boolean {
  if (typeof handler !== 'object' || handler === null) return false;
  const { type, command: other } = handler as Record<string, unknown>;
  return type === 'command' && typeof other === 'string' && other !== command && binOf(other) === binOf(command);
}

function isOurs(handler: unknown, command: string): boolean {
  return (
    typeof handler === 'object' &&
    handler !== null &&
    (handler as Record<string, unknown>).type === 'command' &&
    (handler as Record<string, unknown>).command === command
  );
}

/** Commands of the same event that run a copy of our bin from elsewhere (another install): reported, left alone. */
function otherCopies(groups: readonly Group[], wiring: Wiring, command: string): string[] {
  const found: string[] = [];
  for (const group of groups) {
    for (const handler of handlersOf(group, wiring.event)) {
      const other =
        typeof handler === 'object' && handler !== null ? (handler as Record<string, unknown>).command : undefined;
      if (
        typeof other === 'string' &&
        other !== command &&
        other.includes(`${wiring.bin}.cjs`) &&
        binOf(other) !== binOf(command)
      )
        found.push(other);
    }
  }
  return found;
}
