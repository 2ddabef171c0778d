// The zod schemas of Claude Code's hook payloads as we read them: the source of what is accepted. The hooks parse
// with src/generated/claude-parsers.ts, which `npm run build` generates from them; nothing needs this module at run time (a
// payload that fails is skipped without a message), so zod is never evaluated by a Claude Code hook call.
import * as z from 'zod/mini';
import '../../core/zod-locale';

// Any field can be absent or of another type in some version: a wrong type counts as absent, never as an error.
const text = z.catch(z.optional(z.string()), undefined);

/** A hook payload: `hook_event_name` must be a string; the other fields we read are texts when they are. */
export const PayloadSchema = z.looseObject({
  hook_event_name: z.string(),
  session_id: text,
  cwd: text,
  tool_name: text,
  agent_id: text,
  agent_type: text,
  last_assistant_message: text,
  /** StopFailure: the failure's kind (`rate_limit`, `server_error`, `unknown`, …) and its details. */
  error: text,
  error_details: text,
  /** Interrupt (2.1.335+): who stopped the main turn, what ended it, how the stop arrived. */
  source: text,
  reason: text,
  via: text,
  tool_input: z.catch(z.optional(z.unknown()), undefined),
  tool_response: z.catch(z.optional(z.looseObject({ agentId: text, status: text })), undefined),
});

/** The Task/Agent tool's input: the agent type asked for (absent, or another type, reads as absent). */
export const ToolInputSchema = z.looseObject({ subagent_type: text });

/** The Bash tool's input: the command (absent, or another type, reads as absent). */
export const BashInputSchema = z.looseObject({ command: text });

export type Payload = z.infer<typeof PayloadSchema>;
export type ToolInput = z.infer<typeof ToolInputSchema>;
export type BashInput = z.infer<typeof BashInputSchema>;

/** The parse functions `npm run build` writes into src/generated/claude-parsers.ts (scripts/parsers.mjs). */
export const PARSERS = {
  parsePayload: { schema: PayloadSchema, type: 'Payload', doc: 'A hook payload as PayloadSchema parses it.' },
  parseToolInput: {
    schema: ToolInputSchema,
    type: 'ToolInput',
    doc: 'A Task/Agent tool input as ToolInputSchema parses it (undefined for anything but an object).',
  },
  parseBashInput: {
    schema: BashInputSchema,
    type: 'BashInput',
    doc: 'A Bash tool input as BashInputSchema parses it (undefined for anything but an object).',
  },
} as const;
