// The one pointer protocol (src/store/pointer-index.ts) on a toy key policy of its own, apart from the two real ones
// (agent-index, claude-index tests): what a lookup trusts, what a write leaves on disk at each step, and completion.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';
import { DEFAULT_LOCK_OPTIONS } from '../../../src/platform/lock';
import { MARKER_FILE } from '../../../src/store/index-marker';
import { PointerIndex, type KeyPolicy } from '../../../src/store/pointer-index';

const now = new Date('2026-01-08T18:00:00.000Z');
const session = (id: string, name: string): SessionState =>
  newSession({ agent_id: id, agent_name: name, purpose: 'p' }, now);

/** Keys are agent names; a plain pointer is `<id> <last_updated>`, an announcement `pending <id> [<previous>]`. */
const POLICY: KeyPolicy<string> = {
  folder: '.toy',
  fileName: (key) => (key.length > 8 ? null : key),
  parse(text) {
    const [head, id, more] = text.split(' ');
    if (head === 'pending' && id !== undefined) return { session: id, pending: true, previous: more };
    if (head === 'none') return { session: null, pending: false };
    return head !== undefined && id !== undefined ? { session: head, pending: false, stamp: id } : 'untrusted';
  },
  plain: (_, target) => (target === null ? 'none' : `${target.agent_id} ${target.last_updated}`),
  announcement: (_, id, previous) => (previous === undefined ? `pending ${id}` : `pending ${id} ${previous}`),
  // The session an announcement replaced is recorded without its stamp.
  checks: (key, pointer, state) =>
    state.agent_name === key && (pointer.stamp === undefined || state.last_updated === pointer.stamp),
  proves: (key, state) => state.agent_name === key,
  pointed: (states) => states.map((state) => [state.agent_name, state] as const),
};

let root: string;
let sessions: Map<string, SessionState>;
let reads: number;
let scans: number;
let index: PointerIndex<string>;
const pointer = (key: string): string => readFileSync(join(root, '.toy', key), 'utf8');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agent-session-'));
  sessions = new Map();
  reads = 0;
  scans = 0;
  const store = {
    read: (id: string) => {
      reads++;
      return sessions.get(id) ?? null;
    },
    scan: () => {
      scans++;
      index.complete([...sessions.values()], () => true);
      return [...sessions.values()];
    },
  };
  index = new PointerIndex(root, POLICY, store, DEFAULT_LOCK_OPTIONS);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('PointerIndex lookups', () => {
  it('trust a pointer only while its target checks out, and say "scan" otherwise', () => {
    const s1 = session('s1', 'arch');
    sessions.set('s1', s1);
    index.complete([s1], () => true);
    expect(index.lookup('arch')).toEqual(s1);
    // Changed since the pointer was written: not what the pointer says.
    sessions.set('s1', { ...s1, last_updated: '2026-01-09T00:00:00.000Z' });
    expect(index.lookup('arch')).toBe('scan');
    writeFileSync(join(root, '.toy', 'arch'), 'torn');
    expect(index.lookup('arch')).toBe('scan');
  });

  it('prove "no session" from the marker without reading a session, and ask for a listing without it', () => {
    expect(index.lookup('arch')).toBe('list');
    index.complete([], () => true);
    expect(existsSync(join(root, '.toy', MARKER_FILE))).toBe(true);
    expect(index.lookup('arch')).toBeNull();
    expect(index.lookup('far-too-long')).toBe('scan');
    expect(reads).toBe(0);
  });

  it('believe an announcement whose session shows the write, else count it as what it replaced', () => {
    const s1 = session('s1', 'arch');
    sessions.set('s1', s1);
    index.complete([], () => true);
    writeFileSync(join(root, '.toy', 'arch'), 'pending s1');
    expect(index.lookup('arch')).toEqual(s1);
    writeFileSync(join(root, '.toy', 'arch'), 'pending s9 s1');
    expect(index.lookup('arch')).toEqual(s1);
    writeFileSync(join(root, '.toy', 'arch'), 'pending s9');
    expect(index.lookup('arch')).toBeNull();
  });
});

describe('PointerIndex.writing', () => {
  it('announces before the write and settles after it', () => {
    index.complete([], () => true);
    const s1 = session('s1', 'arch');
    const seen = index.writing(
      join(root, '.toy', 'arch'),
      'arch',
      's1',
      () => pointer('arch'),
      () => s1,
    );
    expect(seen).toBe('pending s1');
    expect(pointer('arch')).toBe(`s1 ${s1.last_updated}`);
    // A complete index needs no listing before a first pointer.
    expect(scans).toBe(0);
  });

  it('completes an unmarked index first, so that a missing pointer means no session', () => {
    index.writing(
      join(root, '.toy', 'arch'),
      'arch',
      's1',
      () => undefined,
      () => null,
    );
    expect(scans).toBe(1);
    expect(existsSync(join(root, '.toy', MARKER_FILE))).toBe(true);
  });

  it('puts the pointer back as it was when the write fails', () => {
    const s1 = session('s1', 'arch');
    sessions.set('s1', s1);
    index.complete([s1], () => true);
    const before = pointer('arch');
    const failing = (): never => {
      throw new Error('disk full');
    };
    expect(() => index.writing(join(root, '.toy', 'arch'), 'arch', 's2', failing, () => null)).toThrow('disk full');
    expect(pointer('arch')).toBe(before);
    // A first pointer is removed again: still no session of that key.
    expect(() => index.writing(join(root, '.toy', 'new'), 'new', 's3', failing, () => null)).toThrow('disk full');
    expect(existsSync(join(root, '.toy', 'new'))).toBe(false);
  });
});
