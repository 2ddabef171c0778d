import { DEFAULT_LIMITS } from '../../../../src/core/limits';
import { approveState, deciderText } from '../../../../src/core/decision';
import { escapeHtml, renderReport } from '../../../../src/core/views/report/html';
import { outcomeBuckets } from '../../../../src/core/views/report/buckets';
import { computeStats } from '../../../../src/core/views/stats';
import { applyChange, newSession } from '../../../../src/core/session';
import { withHost } from '../../../../src/core/host';
import { generateSessions } from '../../../support/generate-sessions';

const now = new Date('2026-11-23T12:00:00.000Z');

describe('renderReport', () => {
  it('stays one small self-contained page with 10,000 sessions: under 5 MB, no script, no external resource', () => {
    const states = generateSessions({ count: 10_000, now, seed: 5 });
    const html = renderReport({ states, now, limits: DEFAULT_LIMITS });
    expect(Buffer.byteLength(html)).toBeLessThan(5 * 1024 * 1024);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|url\(|https?:\/\//i);
    expect(html).toContain(`<b data-figure="sessions">10000</b>`);
    const lanes = html.match(/<g class="lane"/g)?.length ?? 0;
    expect(lanes).toBe(7 * 30);
  }, 120_000);

  it('stays under 5 MB when each of 10,000 sessions has its own agent: the busiest 40 agents get rows and lanes', () => {
    const states = generateSessions({ count: 10_000, now, seed: 6 }).map((state, index) => ({
      ...state,
      agent_name: `agent <${index}>`,
    }));
    const html = renderReport({ states, now, limits: DEFAULT_LIMITS });
    expect(Buffer.byteLength(html)).toBeLessThan(5 * 1024 * 1024);
    expect(html.match(/<tr data-agent=/g)).toHaveLength(40);
    expect(html.match(/<svg class="lanes"/g)).toHaveLength(40);
    expect(html).toContain('<td>9960 other agents</td><td class="n">9960</td>');
  }, 120_000);

  it.each([
    ['<img src=x onerror=alert(1)>'],
    ['"><script>alert(1)</script>'],
    ["' onmouseover='alert(1)"],
    ['a&amp;b'],
  ])('escapes the agent name %j everywhere it appears', (name) => {
    const state = applyChange(
      newSession(
        { agent_id: 'agent-1', agent_name: name, purpose: name, metadata: { plan: name } },
        new Date(now.getTime() - 60_000),
      ),
      { phase: 'approval', error: name },
      now,
    );
    const html = renderReport({ states: [state], now, limits: DEFAULT_LIMITS });
    expect(html).not.toContain(name);
    expect(html).toContain(escapeHtml(name));
    expect(html).not.toMatch(/<script|<img/i);
  });

  it("names each session's host on its lane (data-host and the lane's title)", () => {
    const base = newSession({ agent_id: 'agent-1', agent_name: 'a', purpose: 'p' }, new Date(now.getTime() - 60_000));
    const states = (['codex', 'opencode'] as const).map((host, i) =>
      withHost({ ...base, agent_id: `agent-${i + 2}` }, host),
    );
    const html = renderReport({ states: [base, ...states], now, limits: DEFAULT_LIMITS });
    for (const host of ['claude-code', 'codex', 'opencode']) expect(html).toContain(`data-host="${host}"`);
    expect(html).toMatch(/<title>agent-3 \(initializing, opencode, p\)/);
  });

  // The report goes to stdout by default: a raw ESC in a decision note would drive the reader's terminal.
  it('writes control characters and bidi overrides of session texts as \\uXXXX', () => {
    const hostile = 'n\u001b]52;c;ZWNobw==\u0007\u001b[2J\u202e\u009b';
    const state = applyChange(
      newSession(
        { agent_id: 'agent-1', agent_name: 'a', purpose: 'p', metadata: { plan: hostile } },
        new Date(now.getTime() - 60_000),
      ),
      { phase: 'approval', error: hostile },
      now,
    );
    const html = renderReport({ states: [state], now, limits: DEFAULT_LIMITS });
    // eslint-disable-next-line no-control-regex
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(html).toContain('\\u001b[2J\\u202e\\u009b');
  });

  it('honours --since: only sessions created since are counted and drawn', () => {
    const states = generateSessions({ count: 200, now, seed: 9 });
    const since = new Date(now.getTime() - 2 * 86_400_000);
    const html = renderReport({ states, now, limits: DEFAULT_LIMITS, since });
    const kept = states.filter((s) => Date.parse(s.created_at) >= since.getTime()).length;
    expect(kept).toBeLessThan(states.length);
    expect(html).toContain(`<b data-figure="sessions">${kept}</b>`);
    expect(html).toContain(`<span data-figure="kept">${kept}</span>`);
  });
});

describe('outcomeBuckets', () => {
  it('adds up to the figures of stats, in day slots for a week', () => {
    const states = generateSessions({ count: 500, now, seed: 2 });
    const buckets = outcomeBuckets(states, now);
    const stats = computeStats(states, { now, limits: DEFAULT_LIMITS }).overall;
    expect(buckets[0]!.unit).toBe('day');
    const sum = (key: 'sessions' | 'completed' | 'failed' | 'abandoned') =>
      buckets.reduce((total, bucket) => total + bucket[key], 0);
    expect([sum('sessions'), sum('completed'), sum('failed'), sum('abandoned')]).toEqual([
      stats.sessions,
      stats.completed,
      stats.failed,
      stats.abandoned,
    ]);
  });
});

describe('a decision in the report', () => {
  it('says who decided as the CLI and the hooks do: the claimed name and the OS user it came from', () => {
    const parked = applyChange(
      newSession(
        { agent_id: 'agent-1', agent_name: 'a', purpose: 'p', metadata: {} },
        new Date(now.getTime() - 60_000),
      ),
      { phase: 'approval' },
      now,
    );
    const approved = approveState(parked, { by: 'alice' }, { os_user: 'bob', terminal: true, agent_shell: null }, now);
    const html = renderReport({ states: [approved], now, limits: DEFAULT_LIMITS });
    expect(html).toContain(escapeHtml(`approved by ${deciderText(approved.decisions![0]!)}`));
    expect(html).toContain('bob');
  });
});
