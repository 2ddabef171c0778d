import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_METADATA_BYTES, parseHours, parseMetadata, readMetadata } from '../../../src/cli/args';
import { codeOf, tempDir } from '../../helpers';

const nested = (depth: number): string => `${'{"k":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('parseMetadata', () => {
  it.each([
    ['{"task_id":"T1"}', { task_id: 'T1' }],
    ['{}', {}],
    [nested(100), JSON.parse(nested(100))],
  ])('reads %s', (text, expected) => {
    expect(parseMetadata(text)).toEqual(expected);
  });

  it('reads nothing as nothing', () => {
    expect(parseMetadata(undefined)).toBeUndefined();
  });

  it.each([
    ['not JSON', '{oops'],
    ['an array', '[1]'],
    ['a string', '"text"'],
    ['null', 'null'],
    ['nested 101 objects deep', nested(101)],
    ['nested 5,000 arrays deep', `{"d":${'['.repeat(5000)}${']'.repeat(5000)}}`],
  ])('refuses %s with E_USAGE', (_label, text) => {
    expect(codeOf(() => parseMetadata(text))).toBe('E_USAGE');
  });
});

describe('parseHours', () => {
  it.each([
    ['24', 24],
    ['0', 0],
    ['1.5', 1.5],
    [6, 6],
  ])('reads %p', (raw, hours) => {
    expect(parseHours(raw)).toBe(hours);
  });

  it.each(['abc', '-1', '0x10', '1e3', 'Infinity', '', -2])('refuses %p with E_USAGE', (raw) => {
    expect(codeOf(() => parseHours(raw))).toBe('E_USAGE');
  });
});

describe('readMetadata', () => {
  const dir = tempDir();
  const file = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  /** A descriptor reading `text`, as stdin would. */
  const stdin = (text: string): number => openSync(file('stdin.txt', text), 'r');

  it('reads nothing as nothing', () => {
    expect(readMetadata(undefined, 0)).toBeUndefined();
  });

  it.each([
    ['one object', ['{"a":1}'], { a: 1 }],
    ['objects merged left to right', ['{"a":1,"b":1}', '{"b":2}'], { a: 1, b: 2 }],
    ['a file', () => [`@${file('m.json', '{"f":true}')}`], { f: true }],
    ['a file with a byte order mark', () => [`@${file('bom.json', '\uFEFF{"b":0}')}`], { b: 0 }],
  ])('reads %s', (_label, values, expected) => {
    const raw = typeof values === 'function' ? values() : values;
    expect(readMetadata(raw.length === 1 ? raw[0] : raw, 0)).toEqual(expected);
  });

  it('reads - from the descriptor given', () => {
    const fd = stdin('{"from":"stdin"}');
    try {
      expect(readMetadata(['-', '{"x":1}'], fd)).toEqual({ from: 'stdin', x: 1 });
    } finally {
      closeSync(fd);
    }
  });

  it.each([
    ['a missing file', () => '@' + join(dir, 'missing.json')],
    ['a folder', () => (mkdirSync(join(dir, 'sub'), { recursive: true }), `@${join(dir, 'sub')}`)],
    ['no file name', () => '@'],
    ['- twice', () => ['-', '-']],
    ['a file past the limit', () => `@${file('big.json', `{"k":"${'x'.repeat(MAX_METADATA_BYTES)}"}`)}`],
    ['merged objects past the limit', () => [`{"a":"${'x'.repeat(600_000)}"}`, `{"b":"${'x'.repeat(600_000)}"}`]],
    ['a file nested too deep', () => `@${file('deep.json', `${'{"k":'.repeat(101)}1${'}'.repeat(101)}`)}`],
    ['a number', () => 5],
  ])('refuses %s with E_USAGE', (_label, raw) => {
    expect(codeOf(() => readMetadata(raw(), 0))).toBe('E_USAGE');
  });

  it('refuses invalid UTF-8 bytes', () => {
    const path = join(dir, 'bad-utf8.json');
    writeFileSync(path, Buffer.from([0x7b, 0x22, 0x6b, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect(codeOf(() => readMetadata(`@${path}`, 0))).toBe('E_USAGE');
  });

  it('never quotes a file in its messages', () => {
    for (const text of ['token=hunter2', '["hunter2"]', '{"hunter2": 1e999}']) {
      try {
        readMetadata(`@${file('secret.json', text)}`, 0);
        throw new Error('accepted');
      } catch (error) {
        expect(String(error)).not.toContain('hunter2');
      }
    }
  });
});
