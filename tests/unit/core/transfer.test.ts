import { newSession } from '../../../src/core/session';
import { EXPORT_FORMAT, parseExport, toExport } from '../../../src/core/transfer';

const NOW = new Date('2026-01-08T12:00:00.000Z');
const state = newSession({ agent_id: 'agent-1', agent_name: 'n', purpose: 'p', metadata: { task_id: 'T1' } }, NOW);

describe('export documents', () => {
  it('round-trips through JSON', () => {
    const document = toExport(state, NOW);
    expect(document).toEqual({ format: EXPORT_FORMAT, exported_at: NOW.toISOString(), session: state });
    expect(parseExport(JSON.parse(JSON.stringify(document)), 'x')).toEqual(document);
  });

  it.each([
    ['not an object', []],
    ['no format', { exported_at: NOW.toISOString(), session: state }],
    ['another format', { format: 'agent-session/2', exported_at: NOW.toISOString(), session: state }],
    ['bad exported_at', { format: EXPORT_FORMAT, exported_at: 'soon', session: state }],
  ])('refuses %s with E_USAGE', (_label, raw) => {
    expect(() => parseExport(raw, 'x')).toThrow(expect.objectContaining({ code: 'E_USAGE' }));
  });

  it.each([
    ['a bad phase', { ...state, phase: 'dancing' }],
    ['a traversal id', { ...state, agent_id: '../x' }],
    ['an unknown field', { ...state, extra: 1 }],
    ['no session', undefined],
  ])('refuses a session with %s as E_CORRUPT (the store schema)', (_label, session) => {
    expect(() => parseExport({ format: EXPORT_FORMAT, exported_at: NOW.toISOString(), session }, 'x')).toThrow(expect.objectContaining({ code: 'E_CORRUPT' }));
  });
});
