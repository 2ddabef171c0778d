import * as z from 'zod/mini';
import '../../core/zod-locale';
/** A hook payload: `hook_event_name` must be a string; the other fields we read are texts when they are. */
export declare const PayloadSchema: z.ZodMiniObject<{
    hook_event_name: z.ZodMiniString<string>;
    session_id: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    cwd: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    tool_name: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    agent_id: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    agent_type: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    last_assistant_message: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    error: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    error_details: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    source: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    reason: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    via: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    tool_input: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniUnknown>>;
    tool_response: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniObject<{
        agentId: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
        status: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
    }, z.z.core.$loose>>>;
}, z.z.core.$loose>;
/** The Task/Agent tool's input: the agent type asked for (absent, or another type, reads as absent). */
export declare const ToolInputSchema: z.ZodMiniObject<{
    subagent_type: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
}, z.z.core.$loose>;
/** The Bash tool's input: the command (absent, or another type, reads as absent). */
export declare const BashInputSchema: z.ZodMiniObject<{
    command: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
}, z.z.core.$loose>;
export type Payload = z.infer<typeof PayloadSchema>;
export type ToolInput = z.infer<typeof ToolInputSchema>;
export type BashInput = z.infer<typeof BashInputSchema>;
/** The parse functions `npm run build` writes into src/generated/claude-parsers.ts (scripts/parsers.mjs). */
export declare const PARSERS: {
    readonly parsePayload: {
        readonly schema: z.ZodMiniObject<{
            hook_event_name: z.ZodMiniString<string>;
            session_id: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            cwd: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            tool_name: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            agent_id: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            agent_type: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            last_assistant_message: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            error: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            error_details: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            source: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            reason: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            via: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            tool_input: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniUnknown>>;
            tool_response: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniObject<{
                agentId: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
                status: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
            }, z.z.core.$loose>>>;
        }, z.z.core.$loose>;
        readonly type: "Payload";
        readonly doc: "A hook payload as PayloadSchema parses it.";
    };
    readonly parseToolInput: {
        readonly schema: z.ZodMiniObject<{
            subagent_type: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
        }, z.z.core.$loose>;
        readonly type: "ToolInput";
        readonly doc: "A Task/Agent tool input as ToolInputSchema parses it (undefined for anything but an object).";
    };
    readonly parseBashInput: {
        readonly schema: z.ZodMiniObject<{
            command: z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniString<string>>>;
        }, z.z.core.$loose>;
        readonly type: "BashInput";
        readonly doc: "A Bash tool input as BashInputSchema parses it (undefined for anything but an object).";
    };
};
