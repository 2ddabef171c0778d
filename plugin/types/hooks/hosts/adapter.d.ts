import type { Config } from '../../core/config';
import type { AgentLaunchFacts } from '../../core/permission';
import type { HookIo } from '../io';
import type { HostWords } from '../texts';
/** A host's hook payload as it arrives: a JSON object with a string `hook_event_name` (isClaudeCodePayload). */
export type HostPayload = Record<string, unknown> & {
    hook_event_name: string;
};
/** What a host's CLI words are made from: the running bin's folder and node, and the environment. */
export type CliPlace = Pick<HookIo, 'binDir' | 'env' | 'execPath'>;
/**
 * One host, as the hooks meet it: how its payload reads as Claude Code's (which the handlers answer), its words in the
 * texts, and the words that run the CLI from its agents' shell. One per host (index.ts ADAPTERS); a new host is one
 * adapter, its wiring derived from its rows in src/core/events.ts.
 */
export interface HostAdapter {
    /** The payload as the handlers read it (Claude Code's shape), or why it is left alone (a note for the log). */
    normalize(received: HostPayload): {
        readonly payload: HostPayload;
    } | {
        readonly skip: string;
    };
    /** Its words in the context texts. */
    readonly words: HostWords;
    /** The words that run the CLI on the store at `root`, as its agents' shell finds it (cli-words.ts). */
    cliWords(io: CliPlace, root: string): string[];
    /**
     * The words before a session id in its agents' recording command, when they are not the CLI's words and `update`:
     * Codex's `record` entry, its store pinned (src/cli/record.ts), which Codex's exec-policy rule allows as a prefix.
     */
    recordWords?(io: CliPlace, root: string, config: StoreSelection): string[];
    /**
     * How its session runs, as it tells its hooks in their environment (whether a person attends it), when it does;
     * read before the files the permission inbox otherwise reads (service/agent-launch.ts).
     */
    launchFacts?(env: Readonly<Record<string, string | undefined>>): AgentLaunchFacts | undefined;
}
/** What selects a call's store besides its root (app/store-pin.ts). */
export type StoreSelection = Pick<Config, 'database_url' | 'database_schema'>;
