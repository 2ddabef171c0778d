import * as z from 'zod/mini';
import './zod-locale';
/** The config file's layout: every key optional, no other key (a typo must not pass silently). */
export declare const ConfigFileSchema: z.ZodMiniObject<{
    $schema: z.ZodMiniOptional<z.ZodMiniString<string>>;
    resume_timeout_minutes: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
    max_errors: z.ZodMiniOptional<z.ZodMiniInt>;
    cleanup_hours: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
    max_sessions: z.ZodMiniOptional<z.ZodMiniInt>;
    history_cap: z.ZodMiniOptional<z.ZodMiniInt>;
    log_level: z.ZodMiniOptional<z.ZodMiniEnum<{
        debug: "debug";
        info: "info";
        warn: "warn";
        error: "error";
        silent: "silent";
    }>>;
    log_max_bytes: z.ZodMiniOptional<z.ZodMiniInt>;
    database_url: z.ZodMiniOptional<z.ZodMiniString<string>>;
    database_schema: z.ZodMiniOptional<z.ZodMiniString<string>>;
    project: z.ZodMiniOptional<z.ZodMiniString<string>>;
    permission_inbox: z.ZodMiniOptional<z.ZodMiniEnum<{
        always: "always";
        background: "background";
        off: "off";
    }>>;
    permission_grant_ttl_hours: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
    continue_agents: z.ZodMiniOptional<z.ZodMiniBoolean<boolean>>;
    continue_max_transcript_bytes: z.ZodMiniOptional<z.ZodMiniInt>;
    notify: z.ZodMiniOptional<z.ZodMiniUnion<readonly [z.ZodMiniString<string>, z.ZodMiniArray<z.ZodMiniString<string>>]>>;
}, z.z.core.$strict>;
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
/** The parse functions `npm run build` writes into src/generated/config-parsers.ts (scripts/parsers.mjs). */
export declare const PARSERS: {
    readonly parseConfigFileShape: {
        readonly schema: z.ZodMiniObject<{
            $schema: z.ZodMiniOptional<z.ZodMiniString<string>>;
            resume_timeout_minutes: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
            max_errors: z.ZodMiniOptional<z.ZodMiniInt>;
            cleanup_hours: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
            max_sessions: z.ZodMiniOptional<z.ZodMiniInt>;
            history_cap: z.ZodMiniOptional<z.ZodMiniInt>;
            log_level: z.ZodMiniOptional<z.ZodMiniEnum<{
                debug: "debug";
                info: "info";
                warn: "warn";
                error: "error";
                silent: "silent";
            }>>;
            log_max_bytes: z.ZodMiniOptional<z.ZodMiniInt>;
            database_url: z.ZodMiniOptional<z.ZodMiniString<string>>;
            database_schema: z.ZodMiniOptional<z.ZodMiniString<string>>;
            project: z.ZodMiniOptional<z.ZodMiniString<string>>;
            permission_inbox: z.ZodMiniOptional<z.ZodMiniEnum<{
                always: "always";
                background: "background";
                off: "off";
            }>>;
            permission_grant_ttl_hours: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
            continue_agents: z.ZodMiniOptional<z.ZodMiniBoolean<boolean>>;
            continue_max_transcript_bytes: z.ZodMiniOptional<z.ZodMiniInt>;
            notify: z.ZodMiniOptional<z.ZodMiniUnion<readonly [z.ZodMiniString<string>, z.ZodMiniArray<z.ZodMiniString<string>>]>>;
        }, z.z.core.$strict>;
        readonly type: "ConfigFile";
        readonly doc: "A config file (or settings given in code) as ConfigFileSchema parses it.";
    };
};
/**
 * zod's verdict on settings: what it makes of them, or what it finds first wrong (keys it does not know, or the first
 * key whose value it refuses).
 */
export declare function settingsVerdict(raw: unknown): {
    readonly ok: true;
    readonly data: ConfigFile;
} | {
    readonly ok: false;
    readonly unknownKeys: readonly string[];
} | {
    readonly ok: false;
    readonly key: string;
};
