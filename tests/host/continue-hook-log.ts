// What the continuation plays' TEST hook (continue-hook.ts, an entry point: importing it would run it) and the plays
// share: its configuration, the lines of its log, and the markers of what it adds.

/** What the play sets before each run. */
export interface HookConfig {
  readonly recorded: readonly string[];
  readonly maxTranscriptBytes: number;
}

/** A line of the hook's log: a payload as received, or the decision taken on a SendMessage. */
export type HookLine =
  | { readonly kind: 'payload'; readonly payload: Record<string, unknown> }
  | {
      readonly kind: 'decision';
      readonly agentId: unknown;
      readonly choice: { kind: string; why?: string; where?: string; reason: string };
      readonly brought?: string;
      readonly ms: number;
    }
  | { readonly kind: 'error'; readonly message: string };

/** The start of the note the hook adds to a SendMessage whose agent it continues. */
export const NOTE_MARKER = 'CONTINUE-PLAY-NOTE for';

/** The start of the context the hook gives every sub-agent that starts (or starts again). */
export const START_MARKER = 'CONTINUE-PLAY-START-CONTEXT for';
