// The zod schemas of the seed protocol's inputs: the source of what each hook accepts. The hooks parse with
// src/generated/seed-parsers.ts, which `npm run build` generates from them, and load this module only to word a rejection
// (seed-protocol.ts): zod would cost every hook call ~20 M instructions.
import * as z from 'zod/mini';
import { INTERRUPTION_KIND_PATTERN } from '../../core/interruption-kinds';
import '../../core/zod-locale';

/** `pre-delegate`: `{agent_name, agent_id?}`; anything else is kept (and ignored). */
export const PreDelegateInputSchema = z.looseObject({
  agent_name: z.optional(z.nullable(z.string())),
  agent_id: z.optional(z.nullable(z.string())),
});

/**
 * `subagent-stop`'s `interrupted`: the agent died of a host failure (an API error, a usage limit), not of its own
 * error: the failure's kind (a word such as `rate_limit`; absent: `unknown`) and the host's message.
 */
export const InterruptedSchema = z.looseObject({
  error: z.optional(z.nullable(z.string().check(z.regex(INTERRUPTION_KIND_PATTERN)))),
  message: z.optional(z.nullable(z.string())),
});

/**
 * `subagent-stop`: the agent's id and name (at the top or in `task_info`), its output and exit code, or that it was
 * interrupted.
 */
export const SubagentStopInputSchema = z.looseObject({
  agent_id: z.optional(z.nullable(z.string())),
  agent_name: z.optional(z.nullable(z.string())),
  task_info: z.optional(
    z.nullable(
      z.looseObject({ agent_id: z.optional(z.nullable(z.string())), agent_name: z.optional(z.nullable(z.string())) }),
    ),
  ),
  agent_output: z.optional(z.nullable(z.unknown())),
  exit_code: z.optional(z.nullable(z.number())),
  interrupted: z.optional(z.nullable(InterruptedSchema)),
});

export type PreDelegateInput = z.infer<typeof PreDelegateInputSchema>;
export type SubagentStopInput = z.infer<typeof SubagentStopInputSchema>;

/** The parse functions `npm run build` writes into src/generated/seed-parsers.ts (scripts/parsers.mjs). */
export const PARSERS = {
  parsePreDelegateInput: {
    schema: PreDelegateInputSchema,
    type: 'PreDelegateInput',
    doc: "`pre-delegate`'s input as PreDelegateInputSchema parses it.",
  },
  parseSubagentStopInput: {
    schema: SubagentStopInputSchema,
    type: 'SubagentStopInput',
    doc: "`subagent-stop`'s input as SubagentStopInputSchema parses it.",
  },
} as const;

/** zod's first problem with a hook's input (`path: message`), or null when it accepts the input. */
export function firstIssue(hook: 'pre-delegate' | 'subagent-stop', input: unknown): string | null {
  const result = (hook === 'pre-delegate' ? PreDelegateInputSchema : SubagentStopInputSchema).safeParse(input);
  if (result.success) return null;
  const issue = result.error.issues[0];
  if (issue === undefined) return 'invalid input';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
