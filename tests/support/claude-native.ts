// Claude Code's native build, as it ships since the npm wrapper stopped at 2.1.332: this platform's package
// (`@anthropic-ai/claude-code-linux-x64`, its `claude` binary), for the checks whose claim is about the newest Claude
// Code (its plugin validator, how it loads a teammate's plugin). Fails, never skips, when it cannot be installed or
// run here.
import { findClaude, type Claude } from '../host/claude-host';

/** The newest native build these checks were taken with (the host suite plays "latest" itself: latestVersion). */
export const NEWEST_NATIVE_CLAUDE = '2.1.337';

/**
 * The native `claude` of `version`, installed into node_modules/.cache/agent-session/claude-code-native-<version>/
 * on first use (findClaude).
 */
export function nativeClaude(version = NEWEST_NATIVE_CLAUDE): Claude {
  return findClaude(version);
}
