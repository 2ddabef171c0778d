import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initWiringFor } from '../../../src/hooks/plugin-yield';

let project: string;
let bin: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'agent-session-yield-'));
  mkdirSync(join(project, '.claude'));
  bin = join(project, 'dist', 'pre-delegate.cjs');
  mkdirSync(join(project, 'dist'));
  writeFileSync(bin, '');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

function wire(file: string, event: string, command: string, matcher?: string): void {
  const group = { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] };
  writeFileSync(join(project, '.claude', file), JSON.stringify({ hooks: { [event]: [group] } }));
}

describe("the plugin's hook yields to init's wiring of the same event", () => {
  it.each([
    ['settings.local.json', 'SubagentStart', undefined, 'SubagentStart', undefined, true],
    ['settings.json', 'SubagentStart', undefined, 'SubagentStart', undefined, true],
    ['settings.local.json', 'SubagentStop', undefined, 'SubagentStart', undefined, false],
    ['settings.local.json', 'PreToolUse', 'Task|Agent|SendMessage', 'PreToolUse', 'SendMessage', true],
    // An earlier version's matcher never fires for SendMessage: the plugin's hook answers that one.
    ['settings.local.json', 'PreToolUse', 'Task|Agent', 'PreToolUse', 'SendMessage', false],
    ['settings.local.json', 'PreToolUse', '*', 'PreToolUse', 'Task', true],
    // A regular expression of the user's own is not evaluated (a pathological one would stall the hook).
    ['settings.local.json', 'PreToolUse', '(a+)+$', 'PreToolUse', 'Task', false],
  ])('%s wires %s [%s]; event %s [%s]: yields %s', (file, wired, matcher, event, tool, yields) => {
    wire(file, wired, `"/usr/bin/node" "${bin}"`, matcher);
    expect(initWiringFor(project, event, tool)).toBe(yields ? join(project, '.claude', file) : null);
  });

  it('never to a bin that is gone, nor to a file that is not JSON, nor where nothing of ours is wired', () => {
    wire('settings.local.json', 'SubagentStart', `"node" "${join(project, 'gone', 'pre-delegate.cjs')}"`);
    expect(initWiringFor(project, 'SubagentStart', undefined)).toBeNull();
    writeFileSync(join(project, '.claude', 'settings.local.json'), `{"hooks": ${bin}`);
    expect(initWiringFor(project, 'SubagentStart', undefined)).toBeNull();
    wire('settings.local.json', 'SubagentStart', '"node" "/opt/other-tool.js"');
    expect(initWiringFor(project, 'SubagentStart', undefined)).toBeNull();
  });
});
