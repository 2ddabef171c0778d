import { newSession } from '../../../src/core/session';
import { MAX_METADATA_DEPTH } from '../../../src/core/input';
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
    expect(() => parseExport({ format: EXPORT_FORMAT, exported_at: NOW.toISOString(), session }, 'x')).toThrow(
      expect.objectContaining({ code: 'E_CORRUPT' }),
    );
  });

  it('takes a session the machine produced, through every kind of history entry', () => {
    const at = NOW.toISOString();
    const finished = {
      ...state,
      phase: 'completed',
      resume_ready: false,
      finalized_at: at,
      duration_seconds: 1,
      history: [
        { from_phase: 'initializing', to_phase: 'approval', timestamp: at },
        { from_phase: 'approval', to_phase: 'approval', timestamp: at, event: 'resume' },
        { from_phase: 'approval', to_phase: 'executing', timestamp: at },
        { from_phase: 'executing', to_phase: 'completed', timestamp: at },
      ],
    };
    expect(parseExport({ format: EXPORT_FORMAT, exported_at: at, session: finished }, 'x').session).toEqual(finished);
    // A capped history starts anywhere; only a history that was never capped must start from the beginning.
    const capped = {
      ...state,
      phase: 'planning',
      resume_ready: true,
      history_dropped: 3,
      history: [{ from_phase: 'approval', to_phase: 'planning', timestamp: at }],
    };
    expect(parseExport({ format: EXPORT_FORMAT, exported_at: at, session: capped }, 'x').session).toEqual(capped);
  });

  const at = NOW.toISOString();
  const move = (from_phase: string, to_phase: string, event?: 'resume') => ({
    from_phase,
    to_phase,
    timestamp: at,
    ...(event ? { event } : {}),
  });
  it.each([
    [
      'resume_ready in a final phase',
      { phase: 'completed', resume_ready: true, finalized_at: at, history: [move('initializing', 'completed')] },
    ],
    [
      'resume_ready false in a resumable phase',
      { phase: 'approval', resume_ready: false, history: [move('initializing', 'approval')] },
    ],
    ['a final phase without finalized_at', { phase: 'completed', history: [move('initializing', 'completed')] }],
    [
      'finalized_at in a working phase',
      { phase: 'planning', resume_ready: true, finalized_at: at, history: [move('initializing', 'planning')] },
    ],
    [
      'a broken chain',
      {
        phase: 'approval',
        resume_ready: true,
        history: [move('initializing', 'planning'), move('investigating', 'approval')],
      },
    ],
    [
      'a history ending elsewhere',
      { phase: 'approval', resume_ready: true, history: [move('initializing', 'planning')] },
    ],
    ['an illegal move', { phase: 'validating', history: [move('initializing', 'validating')] }],
    [
      'a move out of a final phase',
      {
        phase: 'approval',
        resume_ready: true,
        history: [move('initializing', 'completed'), move('completed', 'approval')],
      },
    ],
    [
      'a resume that changes phase',
      {
        phase: 'approval',
        resume_ready: true,
        history: [move('initializing', 'planning'), move('planning', 'approval', 'resume')],
      },
    ],
    [
      'a resume in a phase that is not resumable',
      { phase: 'executing', history: [move('initializing', 'executing'), move('executing', 'executing', 'resume')] },
    ],
    ['a working phase with no history', { phase: 'executing' }],
    [
      'an uncapped history that does not start from initializing',
      { phase: 'completed', finalized_at: at, history: [move('planning', 'completed')] },
    ],
  ])('refuses a session the machine could not produce (%s) as E_CORRUPT', (_label, fields) => {
    const session = { ...state, ...fields };
    expect(() => parseExport({ format: EXPORT_FORMAT, exported_at: at, session }, 'x')).toThrow(
      expect.objectContaining({ code: 'E_CORRUPT' }),
    );
  });
});

describe('implausible facts (issue 10 item 7)', () => {
  const created = NOW.toISOString();
  const later = new Date(NOW.getTime() + 90_000).toISOString();
  const earlier = new Date(NOW.getTime() - 90_000).toISOString();
  const finished = {
    ...state,
    phase: 'completed',
    resume_ready: false,
    last_updated: later,
    finalized_at: later,
    duration_seconds: 90,
    history: [{ from_phase: 'initializing', to_phase: 'completed', timestamp: later }],
  };
  const errored = { ...state, error_count: 1, last_error: { message: 'boom', timestamp: created } };
  const load = (session: unknown) => parseExport({ format: EXPORT_FORMAT, exported_at: later, session }, 'x');

  it('takes the plausible bases', () => {
    expect(load(finished).session).toEqual(finished);
    expect(load(errored).session).toEqual(errored);
    expect(load({ ...finished, duration_seconds: 90.4 }).session.duration_seconds).toBe(90.4);
  });

  it.each([
    ['created_at after last_updated', 'last_updated', { ...state, last_updated: earlier }],
    ['finalized_at before created_at', 'finalized_at', { ...finished, finalized_at: earlier, last_updated: later }],
    ['a huge duration_seconds', 'duration_seconds', { ...finished, duration_seconds: 1e300 }],
    ['a duration_seconds off by minutes', 'duration_seconds', { ...finished, duration_seconds: 300 }],
    ['a duration_seconds without finalized_at', 'duration_seconds', { ...state, duration_seconds: 0 }],
    ['resumes_dropped above history_dropped', 'resumes_dropped', { ...state, history_dropped: 1, resumes_dropped: 2 }],
    ['last_error with error_count 0', 'error_count', { ...errored, error_count: 0 }],
    ['error_count without last_error', 'last_error', { ...errored, last_error: null }],
    ['a blank agent name', 'agent_name', { ...state, agent_name: '   ' }],
    ['an agent name with an escape sequence', 'agent_name', { ...state, agent_name: 'x\u001b[2J' }],
    ['an agent name with a newline', 'agent_name', { ...state, agent_name: 'a\nb' }],
    ['an empty purpose', 'purpose', { ...state, purpose: '' }],
    ['a blank purpose', 'purpose', { ...state, purpose: '  ' }],
    [
      'a history entry before created_at',
      'history.0.timestamp',
      {
        ...finished,
        history: [{ ...finished.history[0], timestamp: earlier }],
      },
    ],
    [
      'history entries out of time order',
      'history.1.timestamp',
      {
        ...state,
        phase: 'approval',
        resume_ready: true,
        last_updated: later,
        history: [
          { from_phase: 'initializing', to_phase: 'planning', timestamp: later },
          { from_phase: 'planning', to_phase: 'approval', timestamp: created },
        ],
      },
    ],
  ])('refuses %s as E_CORRUPT, naming the rule', (_label, field, session) => {
    expect(() => load(session)).toThrow(
      expect.objectContaining({ code: 'E_CORRUPT', message: expect.stringContaining(field) }),
    );
  });

  // Issue 30 (11): a million-deep array overflowed the stack (exit 5, `Maximum call stack size exceeded`).
  const nested = (depth: number, leaf: unknown = 1): unknown => {
    let value = leaf;
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  };
  const deepArray = (depth: number): unknown => {
    let value: unknown = [];
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };

  it.each([
    ['a deep array', deepArray(1_000_000)],
    ['a deep session', { format: EXPORT_FORMAT, exported_at: NOW.toISOString(), session: nested(100_000) }],
    [
      'deep metadata',
      { format: EXPORT_FORMAT, exported_at: NOW.toISOString(), session: { ...state, metadata: nested(200_000) } },
    ],
  ])('refuses %s with E_USAGE, naming the nesting limit, without overflowing the stack', (_label, raw) => {
    expect(() => parseExport(raw, 'x')).toThrow(
      expect.objectContaining({ code: 'E_USAGE', message: expect.stringContaining('nested at most') }),
    );
  });

  it('takes metadata nested as deep as a session may hold it', () => {
    const deep = { ...state, metadata: nested(MAX_METADATA_DEPTH - 1) as Record<string, unknown> };
    const document = toExport(deep, NOW);
    expect(parseExport(JSON.parse(JSON.stringify(document)), 'x')).toEqual(document);
  });
});
