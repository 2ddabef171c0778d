/** SHA-256 of `data` (32 bytes). */
export declare function sha256(data: Uint8Array): Uint8Array;
/** HMAC-SHA256 of `message` under `key` (32 bytes). */
export declare function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array;
/** True when two texts are equal, in a time that depends on their length only (a MAC compared). */
export declare function equalInConstantTime(a: string, b: string): boolean;
