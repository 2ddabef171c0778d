import { EVENTS, eventsOf, knownRows } from '../../../src/core/events';
import { HOSTS } from '../../../src/core/host';

describe('the table of events', () => {
  it('names each event once, each with a bin and hosts that exist', () => {
    const names = EVENTS.map((row) => row.event);
    expect(new Set(names).size).toBe(names.length);
    for (const row of EVENTS) {
      expect(['pre-delegate', 'subagent-stop']).toContain(row.bin);
      expect(row.hosts.length).toBeGreaterThan(0);
      for (const host of row.hosts) expect(HOSTS).toContain(host);
    }
  });

  it.each(HOSTS)("gives %s's wiring: the rows that name it, in the table's order", (host) => {
    const rows = eventsOf(host);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(EVENTS.filter((row) => (row.hosts as readonly string[]).includes(host)));
  });

  it('wires Codex with the delegation’s PreToolUse from 0.141.0 (spawn_agent matched as `Agent`), no PostToolUse (its sub-agents start their hooks in order)', () => {
    expect(eventsOf('codex').map((row) => row.event)).toEqual([
      'PreToolUse',
      'PermissionRequest',
      'SubagentStart',
      'SubagentStop',
      'SessionStart',
      'UserPromptSubmit',
      'PostModelRequest',
    ]);
    const pre = eventsOf('codex')[0]!;
    expect(pre.matcher!.split('|')).toContain('Agent');
    expect(knownRows([pre], 'codex', '0.140.0')).toEqual([]);
    expect(knownRows([pre], 'codex', null)).toEqual([]);
    expect(knownRows([pre], 'codex', '0.141.0')).toEqual([pre]);
    expect(knownRows([pre], 'claude-code', null)).toEqual([pre]);
  });
});
