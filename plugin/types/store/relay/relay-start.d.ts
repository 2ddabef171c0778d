/**
 * Starts `command` detached from this process (its own session, no stdio, working folder `/`), and does not wait
 * for it: the relay outlives the hook that started it. The URL travels in the environment (readable by this user only,
 * unlike a command line).
 */
export declare function startDetached(command: readonly string[], env: Readonly<Record<string, string | undefined>>): void;
