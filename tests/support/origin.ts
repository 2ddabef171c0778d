// Decision origins for tests: a decision's origin is gathered from the recording process (core/origin.ts), and a
// test's process may itself run inside an agent's shell, so tests of the service and the core pass one of these.
import type { DecisionOrigin } from '../../src/core/origin';

/** A user at a terminal, outside any agent's shell. */
export const AT_TERMINAL: DecisionOrigin = { os_user: 'tester', terminal: true, agent_shell: null };

/** A process without a terminal (a script, cron), outside any agent's shell. */
export const NO_TERMINAL: DecisionOrigin = { os_user: 'tester', terminal: false, agent_shell: null };

/** A command from an agent's shell. */
export const AGENT_SHELL: DecisionOrigin = {
  os_user: 'tester',
  terminal: false,
  agent_shell: "Claude Code's environment variable CLAUDECODE is set",
};
