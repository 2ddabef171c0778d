import { DEFAULT_LIMITS, limitsFromEnv, type Limits } from '../core/limits';

/** The limits from the environment; a malformed value falls back to the defaults with a warning. */
export function hookLimits(env: Readonly<Record<string, string | undefined>>): { limits: Limits; warning?: string } {
  try {
    return { limits: limitsFromEnv(env) };
  } catch (error) {
    // A malformed limit must not break the host: decide with the defaults, and say so in the log.
    return { limits: DEFAULT_LIMITS, warning: `${(error as Error).message}; using defaults` };
  }
}
