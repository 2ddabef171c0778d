import type { ConfigFile } from '../core/config-schema';
/** A config file (or settings given in code) as ConfigFileSchema parses it. Undefined where zod fails. */
export declare function parseConfigFileShape(value: unknown): ConfigFile | undefined;
