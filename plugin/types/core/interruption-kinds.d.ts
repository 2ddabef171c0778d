/**
 * The failure kinds Claude Code's StopFailure names (`error`, an enum in the binary's schema, 2.1.330 to 2.1.332).
 * A host may add kinds: a word of the same form is kept as it is (INTERRUPTION_KIND_PATTERN); these are the known ones.
 */
export declare const INTERRUPTION_KINDS: readonly ["authentication_failed", "oauth_org_not_allowed", "account_on_hold", "verification_required", "billing_error", "rate_limit", "overloaded", "invalid_request", "model_not_found", "server_error", "unknown", "max_output_tokens", "cloud_credential_error"];
/** What a failure kind looks like: one lower-case word of letters, digits and `_`, as the host's enum. */
export declare const INTERRUPTION_KIND_PATTERN: RegExp;
