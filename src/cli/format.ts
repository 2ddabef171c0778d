import { relativeTime } from '../core/relative-time';
import type { ListEntry } from '../service/sessions';
import { renderRows, type Cell } from './color';

/** A plain-text table: a header, then one row a session, columns padded to their widest cell. */
export function renderTable(entries: readonly ListEntry[], now: Date, colour = false): string {
  const rows: Cell[][] = [['ID', 'AGENT', 'PHASE', 'RESUMABLE', 'ERRORS', 'LAST ACTIVITY']];
  for (const entry of entries) {
    if (entry.kind === 'corrupt') {
      rows.push([
        entry.id,
        '-',
        { text: 'corrupt', style: 'red' },
        { text: 'no (invalid_state)', style: 'red' },
        '-',
        relativeTime(entry.modifiedAt, now),
      ]);
      continue;
    }
    const { state } = entry;
    rows.push([
      entry.id,
      state.agent_name,
      state.phase,
      entry.resumable ? { text: 'yes', style: 'green' } : { text: `no (${entry.reason})`, style: 'dim' },
      { text: String(state.error_count), style: state.error_count > 0 ? 'yellow' : undefined },
      // "in 72 years" would read as a valid time: a clock ahead is shown as what it is, with the stored time.
      entry.clockAhead
        ? { text: `clock ahead (${state.last_updated})`, style: 'red' }
        : relativeTime(state.last_updated, now),
    ]);
  }
  return renderRows(rows, colour);
}
