// The zod schema of `.claude/agent-session.json`: the source of what a config file may hold. Hooks parse with
// src/generated/config-parsers.ts, which `npm run build` generates from it, and load this module only to word a rejection
// (config.ts): zod would cost every hook call ~20 M instructions.
import * as z from 'zod/mini';
import { LOG_LEVELS } from './log-levels';
import { MAX_CLEANUP_HOURS, MAX_RESUME_TIMEOUT_MINUTES } from './limits';
import { MAX_PERMISSION_GRANT_TTL_HOURS, PERMISSION_INBOX_MODES } from './permission';
import './zod-locale';

/** The config file's layout: every key optional, no other key (a typo must not pass silently). */
export const ConfigFileSchema = z.strictObject({
  $schema: z.optional(z.string()),
  resume_timeout_minutes: z.optional(z.number().check(z.positive(), z.lte(MAX_RESUME_TIMEOUT_MINUTES))),
  max_errors: z.optional(z.int().check(z.positive())),
  cleanup_hours: z.optional(z.number().check(z.gte(0), z.lte(MAX_CLEANUP_HOURS))),
  max_sessions: z.optional(z.int().check(z.positive(), z.lte(Number.MAX_SAFE_INTEGER))),
  history_cap: z.optional(z.int().check(z.positive())),
  log_level: z.optional(z.enum(LOG_LEVELS)),
  log_max_bytes: z.optional(z.int().check(z.positive())),
  database_url: z.optional(z.string()),
  database_schema: z.optional(z.string()),
  project: z.optional(z.string()),
  permission_inbox: z.optional(z.enum(PERMISSION_INBOX_MODES)),
  permission_grant_ttl_hours: z.optional(z.number().check(z.positive(), z.lte(MAX_PERMISSION_GRANT_TTL_HOURS))),
  continue_agents: z.optional(z.boolean()),
  continue_max_transcript_bytes: z.optional(z.int().check(z.positive())),
  notify: z.optional(z.union([z.string(), z.array(z.string())])),
});

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** The parse functions `npm run build` writes into src/generated/config-parsers.ts (scripts/parsers.mjs). */
export const PARSERS = {
  parseConfigFileShape: {
    schema: ConfigFileSchema,
    type: 'ConfigFile',
    doc: 'A config file (or settings given in code) as ConfigFileSchema parses it.',
  },
} as const;

/**
 * zod's verdict on settings: what it makes of them, or what it finds first wrong (keys it does not know, or the first
 * key whose value it refuses).
 */
export function settingsVerdict(
  raw: unknown,
):
  | { readonly ok: true; readonly data: ConfigFile }
  | { readonly ok: false; readonly unknownKeys: readonly string[] }
  | { readonly ok: false; readonly key: string } {
  const result = ConfigFileSchema.safeParse(raw);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') return { ok: false, unknownKeys: issue.keys };
  return { ok: false, key: String(issue.path[0]) };
}
