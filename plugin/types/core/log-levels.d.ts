/** Log levels of the hook logs, least to most severe; `silent` writes nothing. */
export declare const LOG_LEVELS: readonly ["debug", "info", "warn", "error", "silent"];
export type LogLevel = (typeof LOG_LEVELS)[number];
