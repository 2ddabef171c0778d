type Env = Readonly<Record<string, string | undefined>>;
/** This user's MAC of a decision's or grant's text (core/seal.ts DecisionSeal has the same shape). */
export interface DecisionSeal {
    /** The MAC of `text` (makes the key on first use). */
    sign(text: string): string;
    /** True when `mac` is the MAC of `text` under this user's key (false without a key). */
    verify(text: string, mac: string): boolean;
}
/** The key file's name in the user's data folder. */
export declare const DECISION_KEY_FILE = "key";
/** Where the key is (`<user data folder>/key`), or null when no absolute home is known. */
export declare function decisionKeyPath(env: Env): string | null;
/**
 * The seal of this user's decisions: `sign` makes the key on first use (its folder 0700, the file 0600, never through
 * a link), `verify` only reads it (no key: nothing verifies). The key is read once per process.
 * @throws SessionError (from sign) E_IO when the key cannot be read or made; E_REFUSED without a home folder
 */
export declare function userDecisionSeal(env: Env): DecisionSeal;
/** HMAC-SHA256 of `text` (UTF-8) under `key`, as 64 hex digits (platform/hmac-sha256.ts: no node:crypto to load). */
export declare function macOf(key: Buffer, text: string): string;
export {};
