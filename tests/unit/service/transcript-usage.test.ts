import { appendFileSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_TALLY } from '../../../src/core/usage';
import { readOn, type TranscriptCursor } from '../../../src/service/transcript-usage';

const dir = mkdtempSync(join(tmpdir(), 'transcript-usage-'));
const row = (id: string, input: number, tools = 0) =>
  `${JSON.stringify({
    type: 'assistant',
    message: {
      id,
      model: 'claude-sonnet-4-5',
      usage: { input_tokens: input, output_tokens: 1 },
      content: Array.from({ length: tools }, () => ({ type: 'tool_use', name: 'Bash', input: {} })),
    },
  })}\n`;

it('a transcript appended between two reads counts each row once, and a half-written row waits', () => {
  const path = join(dir, 'agent-a.jsonl');
  writeFileSync(path, row('m1', 10, 1) + row('m2', 20, 2));
  let cursor: TranscriptCursor = { path, offset: 0, tally: EMPTY_TALLY };
  cursor = readOn(cursor);
  expect(cursor.tally.steps).toBe(3);
  expect(cursor.tally.tokens['claude-sonnet-4-5']?.input).toBe(30);
  // Read again with nothing new: nothing added.
  expect(readOn(cursor)).toBe(cursor);
  // The agent writes on: a whole row and the first half of the next.
  const next = row('m4', 400, 1);
  appendFileSync(path, row('m3', 300, 1) + next.slice(0, 20));
  cursor = readOn(cursor);
  expect(cursor.tally.tokens['claude-sonnet-4-5']?.input).toBe(330);
  expect(cursor.tally.steps).toBe(4);
  appendFileSync(path, next.slice(20));
  cursor = readOn(cursor);
  expect(cursor.tally.tokens['claude-sonnet-4-5']?.input).toBe(730);
  expect(cursor.tally.steps).toBe(5);
});

it('reads at most maxBytes a time, the rest on the next read', () => {
  const path = join(dir, 'agent-b.jsonl');
  writeFileSync(path, row('m1', 1) + row('m2', 2) + row('m3', 4));
  const small = row('m1', 1).length + 5;
  let cursor: TranscriptCursor = { path, offset: 0, tally: EMPTY_TALLY };
  const inputs: number[] = [];
  for (let i = 0; i < 4; i++) {
    cursor = readOn(cursor, small);
    inputs.push(cursor.tally.tokens['claude-sonnet-4-5']?.input ?? 0);
  }
  expect(inputs).toEqual([1, 3, 7, 7]);
});

it('an absent transcript, a link, or one cut shorter than the offset adds nothing', () => {
  const cursor: TranscriptCursor = { path: join(dir, 'none.jsonl'), offset: 0, tally: EMPTY_TALLY };
  expect(readOn(cursor)).toBe(cursor);
  const target = join(dir, 'agent-c.jsonl');
  writeFileSync(target, row('m1', 1));
  symlinkSync(target, join(dir, 'link.jsonl'));
  const linked: TranscriptCursor = { path: join(dir, 'link.jsonl'), offset: 0, tally: EMPTY_TALLY };
  expect(readOn(linked)).toBe(linked);
  const beyond: TranscriptCursor = { path: target, offset: 10_000, tally: EMPTY_TALLY };
  expect(readOn(beyond)).toBe(beyond);
});
