import type { Config } from '../core/config';
/**
 * The pin of a store: a digest of what selects it (the root folder, the database URL, the schema), which
 * `init --host codex` writes into Codex's rule and the Codex hooks into a sub-agent's recording command. The `record`
 * entry (src/cli/record.ts) refuses a pin that is not its own store's: a sandboxed agent that could write the
 * project's config file (a `database_url` of its choice) gets a recording command no rule allows, so it runs in the
 * sandbox. A digest, not the URL: the URL may hold a password. 16 hex digits: the pin tells stores apart, no secret.
 */
export declare function storePin(root: string, config: Pick<Config, 'database_url' | 'database_schema'>): string;
