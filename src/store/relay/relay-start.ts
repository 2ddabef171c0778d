import { spawn } from 'node:child_process';

/**
 * Starts `command` detached from this process (its own session, no stdio, working folder `/`), and does not wait
 * for it: the relay outlives the hook that started it. The URL travels in the environment (readable by this user only,
 * unlike a command line).
 */
export function startDetached(command: readonly string[], env: Readonly<Record<string, string | undefined>>): void {
  const [program, ...args] = command;
  if (program === undefined) return;
  const child = spawn(program, args, { detached: true, stdio: 'ignore', cwd: '/', env: env as NodeJS.ProcessEnv });
  // A failure to start is reported asynchronously: never an uncaught error in the hook.
  child.on('error', () => undefined);
  child.unref();
}
