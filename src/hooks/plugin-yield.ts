import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { textOrNull } from '../platform/files';

/**
 * The plugin's hooks and init's wiring never answer one event twice. The plugin's hooks run through its
 * hooks/node.sh, which sets VIA_PLUGIN_VARIABLE; when the project also has init's wiring for the event (a hook in its
 * `.claude/settings.local.json` or `.claude/settings.json` that runs our pre-delegate or subagent-stop bin, still
 * there), the plugin's hook yields: it prints nothing and logs that it did, and init's answers. init's wiring wins
 * because it names this machine's own copy and the plugin is the team's (`init` says so when both are there). Only
 * the plugin's hooks read the two files, a few system calls; init's hooks and every other host never do.
 */

/** Set to `1` by the plugin's hooks/node.sh for every bin it runs. */
export const VIA_PLUGIN_VARIABLE = 'AGENT_SESSION_VIA_PLUGIN';

/**
 * The settings file whose hooks of ours answer this event in `project` (so the plugin's hook yields), or null.
 * @param tool the payload's `tool_name`, matched against a group's matcher (PreToolUse, PostToolUse)
 */
export function initWiringFor(project: string, event: string, tool: string | undefined): string | null {
  for (const file of ['settings.local.json', 'settings.json']) {
    const path = join(project, '.claude', file);
    let text: string | null;
    try {
      text = textOrNull(path);
    } catch {
      continue;
    }
    // Most projects: no file, or none of ours in it; parsed only when it names a bin of ours.
    if (text === null || !(text.includes('pre-delegate.cjs') || text.includes('subagent-stop.cjs'))) continue;
    if (answersEvent(text, event, tool)) return path;
  }
  return null;
}

// --- internal ---

/** Whether the settings text has, for `event`, a matching group with a command running a bin of ours that exists. */
function answersEvent(text: string, event: string, tool: string | undefined): boolean {
  let groups: unknown;
  try {
    groups = (JSON.parse(text) as { hooks?: Record<string, unknown> }).hooks?.[event];
  } catch {
    return false;
  }
  if (!Array.isArray(groups)) return false;
  return groups.some((group: unknown) => {
    if (typeof group !== 'object' || group === null) return false;
    const { matcher, hooks } = group as { matcher?: unknown; hooks?: unknown };
    if (!matches(matcher, tool) || !Array.isArray(hooks)) return false;
    return hooks.some((hook: unknown) => {
      const command = typeof hook === 'object' && hook !== null ? (hook as { command?: unknown }).command : undefined;
      const bin =
        typeof command === 'string' ? /"([^"]*(?:pre-delegate|subagent-stop)\.cjs)"/.exec(command)?.[1] : undefined;
      // A bin that is gone (the package removed, the copy deleted) answers nothing: the plugin's hook answers then.
      return bin !== undefined && existsSync(bin);
    });
  });
}

/**
 * Claude Code's matcher: none, empty or `*` matches every tool; a list of tool names (`Task|Agent`, what init writes)
 * matches those. Anything else (a regular expression of the user's own) is not evaluated here, where a pathological
 * one would stall the hook: the plugin's hook answers then, as it did before both could be there.
 */
function matches(matcher: unknown, tool: string | undefined): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (typeof matcher !== 'string' || tool === undefined || !/^[\w|]+$/.test(matcher)) return false;
  return matcher.split('|').includes(tool);
}
