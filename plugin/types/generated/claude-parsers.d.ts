import type { BashInput, Payload, ToolInput } from '../hooks/handlers/claude-schema';
/** A hook payload as PayloadSchema parses it. Undefined where zod fails. */
export declare function parsePayload(value: unknown): Payload | undefined;
/** A Task/Agent tool input as ToolInputSchema parses it (undefined for anything but an object). Undefined where zod fails. */
export declare function parseToolInput(value: unknown): ToolInput | undefined;
/** A Bash tool input as BashInputSchema parses it (undefined for anything but an object). Undefined where zod fails. */
export declare function parseBashInput(value: unknown): BashInput | undefined;
