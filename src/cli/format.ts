import { formatDistanceStrict } from 'date-fns';
import type { ListEntry } from '../sessions';

/** "12 minutes ago" (or "in 2 minutes" for a clock ahead of ours). */
export function ago(iso: string | Date, now: Date): string {
  const at = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(at.getTime())) return 'unknown';
  return formatDistanceStrict(at, now, { addSuffix: true });
}

/** A plain-text table: a header, then one row a session, columns padded to their widest cell. */
export function renderTable(entries: readonly ListEntry[], now: Date): string {
  const rows: string[][] = [['ID', 'AGENT', 'PHASE', 'RESUMABLE', 'ERRORS', 'LAST ACTIVITY']];
  for (const entry of entries) {
    if (entry.kind === 'corrupt') {
      rows.push([entry.id, '-', 'corrupt', 'no (invalid_state)', '-', ago(entry.modifiedAt, now)]);
      continue;
    }
    const { state } = entry;
    rows.push([
      entry.id,
      state.agent_name,
      state.phase,
      entry.resumable ? 'yes' : `no (${entry.reason})`,
      String(state.error_count),
      ago(state.last_updated, now),
    ]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n');
}
