import type { Host } from './host';
/**
 * The hook bin a wiring runs. Both answer every host event alike (the runner, src/hooks/run.ts, tells a host's payload
 * by its `hook_event_name`); the split only means something for the seed protocol, where each bin has its own.
 */
export type HookBin = 'pre-delegate' | 'subagent-stop';
/** One host event: its name, the tool matcher of its wiring (none: every occurrence), its bin, the hosts that fire it. */
export interface EventRow {
    readonly event: string;
    /** The tool names the wiring matches, as Claude Code's settings write them (`Task|Agent`); a regex. */
    readonly matcher?: string;
    readonly bin: HookBin;
    readonly hosts: readonly Host[];
    /**
     * The first version of a host that knows the event, where older ones are still in use: `init` wires it only for a
     * host found at that version or later (Claude Code 2.1.332 reports an unknown event in a settings file as an invalid
     * setting, in a dialog when attended; a Codex before 0.141.0 never fires the row for the tool it matches), and says
     * so otherwise.
     */
    readonly since?: Partial<Readonly<Record<Host, string>>>;
}
/**
 * Every event answered, in the order the wirings list them. The Claude Code rows are what `init` writes into
 * `.claude/settings.json` and the plugin wires; the Agent SDK answers the same (in-process); Codex (0.171.0) fires the
 * rows that name it, with the same payload shape; opencode's plugin (src/hooks/hosts/opencode.ts) reads its own
 * hooks and events as the rows that name it. The delegation tool is `Task` before Claude Code 2.1.63, `Agent` after.
 */
export declare const EVENTS: readonly [{
    readonly event: "PreToolUse";
    readonly matcher: "Task|Agent|SendMessage";
    readonly bin: "pre-delegate";
    readonly hosts: readonly ["claude-code", "codex", "agent-sdk"];
    readonly since: {
        readonly codex: "0.141.0";
    };
}, {
    readonly event: "PermissionRequest";
    readonly bin: "pre-delegate";
    readonly hosts: readonly ["claude-code", "codex", "agent-sdk", "opencode"];
}, {
    readonly event: "SubagentStart";
    readonly bin: "pre-delegate";
    readonly hosts: readonly ["claude-code", "codex", "agent-sdk", "opencode"];
}, {
    readonly event: "SubagentStop";
    readonly bin: "subagent-stop";
    readonly hosts: readonly ["claude-code", "codex", "agent-sdk", "opencode"];
}, {
    readonly event: "StopFailure";
    readonly bin: "subagent-stop";
    readonly hosts: readonly ["claude-code", "agent-sdk", "opencode"];
}, {
    readonly event: "Interrupt";
    readonly bin: "subagent-stop";
    readonly hosts: readonly ["claude-code"];
    readonly since: {
        readonly 'claude-code': "2.1.335";
    };
}, {
    readonly event: "PostToolUse";
    readonly matcher: "Task|Agent";
    readonly bin: "subagent-stop";
    readonly hosts: readonly ["claude-code", "agent-sdk"];
}, {
    readonly event: "SessionStart";
    readonly bin: "pre-delegate";
    readonly hosts: readonly ["claude-code", "codex", "agent-sdk"];
}, {
    readonly event: "UserPromptSubmit";
    readonly bin: "pre-delegate";
    readonly hosts: readonly ["claude-code", "codex", "agent-sdk", "opencode"];
}, {
    readonly event: "Stop";
    readonly bin: "subagent-stop";
    readonly hosts: readonly ["claude-code"];
}, {
    readonly event: "PostModelRequest";
    readonly bin: "subagent-stop";
    readonly hosts: readonly ["codex"];
}];
/** The name of an event answered (a row of EVENTS). */
export type EventName = (typeof EVENTS)[number]['event'];
/** The rows a host fires, in the table's order: its wiring. */
export declare function eventsOf(host: Host): readonly EventRow[];
/**
 * The rows of `host` that its version `found` knows (see EventRow.since); a row with a `since` is left out when the
 * version is unknown (null): an unknown event breaks an older host, a missing one only loses what it would add.
 */
export declare function knownRows(rows: readonly EventRow[], host: Host, found: string | null): EventRow[];
/** Orders two `x.y.z` versions numerically (a missing part counts as 0). */
export declare function compareVersions(a: string, b: string): number;
