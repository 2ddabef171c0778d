// Claude Code's documented hook output (code.claude.com/docs/en/hooks "JSON output", per event; notes
// `claude-code-hooks.md` §3). Strict objects: a field an event does not support fails, as it fails in Claude Code.
import { z } from 'zod';

/** Output strings above this are cut to a preview by Claude Code. */
export const MAX_STRING = 10_000;

const text = z.string().max(MAX_STRING - 1);
const universal = {
  continue: z.boolean().optional(),
  stopReason: text.optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: text.optional(),
  terminalSequence: z.string().optional(),
};
const specific = <E extends string, S extends z.ZodRawShape>(event: E, shape: S) =>
  z.strictObject({ hookEventName: z.literal(event), additionalContext: text.optional(), ...shape });
const blockable = { decision: z.literal('block').optional(), reason: text.optional() };

export const HOOK_OUTPUT_SCHEMAS = {
  PreToolUse: z.strictObject({
    ...universal,
    // Deprecated top-level form, still in the SDK type.
    decision: z.enum(['approve', 'block']).optional(),
    reason: text.optional(),
    hookSpecificOutput: specific('PreToolUse', {
      permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
      permissionDecisionReason: text.optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
    }).optional(),
  }),
  PostToolUse: z.strictObject({
    ...universal,
    ...blockable,
    hookSpecificOutput: specific('PostToolUse', {
      updatedToolOutput: z.unknown().optional(),
      classifierContext: text.optional(),
    }).optional(),
  }),
  SubagentStart: z.strictObject({ ...universal, hookSpecificOutput: specific('SubagentStart', {}).optional() }),
  SubagentStop: z.strictObject({
    ...universal,
    ...blockable,
    hookSpecificOutput: specific('SubagentStop', {}).optional(),
  }),
  Stop: z.strictObject({ ...universal, ...blockable, hookSpecificOutput: specific('Stop', {}).optional() }),
  SessionStart: z.strictObject({
    ...universal,
    hookSpecificOutput: specific('SessionStart', {
      initialUserMessage: text.optional(),
      sessionTitle: text.optional(),
      watchPaths: z.array(z.string()).optional(),
      reloadSkills: z.boolean().optional(),
    }).optional(),
  }),
  SessionEnd: z.strictObject(universal),
  UserPromptSubmit: z.strictObject({
    ...universal,
    ...blockable,
    hookSpecificOutput: specific('UserPromptSubmit', { sessionTitle: text.optional() }).optional(),
  }),
} as const;

export type HookEvent = keyof typeof HOOK_OUTPUT_SCHEMAS;

/**
 * Checks a hook's stdout as Claude Code reads it: nothing, or exactly one JSON object on one line that the
 * event's schema accepts, with `hookEventName` set whenever `hookSpecificOutput` is. Returns the object or null.
 */
export function checkHookOutput(event: string, stdout: string): Record<string, unknown> | null {
  if (stdout === '') return null;
  const lines = stdout.split('\n');
  if (lines.length !== 2 || lines[1] !== '' || !lines[0]!.startsWith('{'))
    throw new Error(`expected one JSON object line, got ${JSON.stringify(stdout.slice(0, 200))}`);
  const value: unknown = JSON.parse(lines[0]!);
  const schema = (HOOK_OUTPUT_SCHEMAS as Record<string, z.ZodTypeAny>)[event];
  if (schema === undefined) throw new Error(`no output expected for ${event}, got ${lines[0]}`);
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`${event} output rejected: ${z.prettifyError(result.error)}`);
  return value as Record<string, unknown>;
}
