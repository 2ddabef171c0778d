import type { TrustVerdict } from '../core/config';
/**
 * The user's trust in a workspace config file's exact content, as direnv's `allow` records it: the SHA-256 of the
 * file's bytes against its real path, in the user's data folder (`~/.local/share/agent-session/trusted.json`, 0600),
 * outside every workspace, so neither an agent confined to the workspace nor a commit can write it. Any change to the
 * file (another byte) makes it untrusted again (docs/security.md). `agent-session trust` writes it; the settings
 * (call.ts) read it only for a file that holds a setting needing trust (core/config.ts WORKSPACE_TRUST).
 */
type Env = Readonly<Record<string, string | undefined>>;
/** The record's file name in the user's data folder. */
export declare const TRUST_FILE = "trusted.json";
/**
 * One trusted file: the digest of the content trusted, and when; and, when the file had been left alone for a while
 * before (STAMP_SETTLED_NS), its stamp (readStamped), which lets a hook skip the digest: any write since changes it.
 */
export interface TrustEntry {
    readonly sha256: string;
    readonly trusted_at: string;
    readonly stamp?: string;
}
/** A file's bytes and its stamp, both from one descriptor, the stamp taken after the read. */
export interface StampedFile {
    readonly bytes: Buffer;
    /**
     * Device, inode, size, modification and change times (ns). The change time is the kernel's, set on every write and
     * never by the writer (utimes sets it to now too): an equal stamp on the same inode means no write since.
     */
    readonly stamp: string;
}
/**
 * Reads `path` as a StampedFile: its bytes, then its stamp from the same descriptor (a write during the read, or a
 * link swapped since it was opened, cannot pass the trusted file's stamp off as the bytes').
 * @throws Node's errors (ENOENT for an absent file)
 */
export declare function readStamped(path: string): StampedFile;
/** Where the record is, or null without a home folder (nothing is then trusted). */
export declare function trustRecordPath(env: Env): string | null;
/**
 * Whether the user trusts `bytes` as the content of the config file at `path`: `trusted` when the record holds their
 * digest for its real path, `changed` when it holds another, else `untrusted` (no record, no entry, a record that is
 * not this user's alone or not readable as one: a stranger's word is no trust).
 */
export declare function trustVerdictOf(path: string, file: StampedFile, env: Env): TrustVerdict;
/** The entry recorded for the file at `path`, or null. */
export declare function trustEntryOf(path: string, env: Env): TrustEntry | null;
/**
 * Records `bytes` (the file's content, as read by the caller and shown to the user) as trusted for the file at `path`.
 * @returns the entry and the real path it is kept under
 * @throws SessionError E_USAGE without a home folder; E_CORRUPT for a record that cannot be read as one (named, left
 *   as it is); E_IO when it cannot be written
 */
export declare function recordTrust(path: string, bytes: Buffer, env: Env, now: Date): {
    real: string;
    entry: TrustEntry;
};
/**
 * Removes the trust recorded for the file at `path` (or at the path itself, when it no longer exists).
 * @returns false when none was recorded
 * @throws SessionError as recordTrust
 */
export declare function revokeTrust(path: string, env: Env): boolean;
export {};
