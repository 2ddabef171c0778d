import { tallyRows, type WorkTally } from '../core/usage';
import { wholeLinesFrom } from '../platform/whole-lines';

// Issue 43 item 1, the reading: a Claude Code sub-agent's transcript (`agent_transcript_path` of SubagentStop) read
// from where the last read ended, so a long-running agent costs each hook only what it wrote since.

/** The most of a transcript one read takes (the rest waits for the next read, which starts where this one ended). */
export const MAX_READ_BYTES = 8 * 1024 * 1024;

/** Where the last read of one transcript ended, and what it counted so far. */
export interface TranscriptCursor {
  readonly path: string;
  readonly offset: number;
  readonly tally: WorkTally;
}

/**
 * Reads what `cursor`'s transcript gained since its offset (whole lines only) and adds it to its tally.
 * @returns the cursor moved on (the same when nothing was added, or the file is absent or not a regular file)
 * @throws SessionError E_IO when the file cannot be read
 */
export function readOn(cursor: TranscriptCursor, maxBytes = MAX_READ_BYTES): TranscriptCursor {
  const read = wholeLinesFrom(cursor.path, cursor.offset, maxBytes);
  if (read === null || read.end === cursor.offset) return cursor;
  return { path: cursor.path, offset: read.end, tally: tallyRows(cursor.tally, read.text) };
}
