/**
 * 8 random lowercase hex digits (32 bits), for generated session ids. Math.random, not Web Crypto or
 * `node:crypto`: an id needs no secrecy (a clash is refused by the store and retried, never overwritten), and the
 * first crypto call loads its modules on the hook path; measured with a cold `node` per sample (80 samples,
 * median, loaded 2-core machine): Web Crypto +7.2 ms, `randomBytes` +8.1 ms, Math.random +0.7 ms over the same
 * string work without randomness. The core stays free of randomness: it takes these digits as an argument.
 */
export declare function randomHex8(): string;
/**
 * A unique suffix for temp names: pid plus random hex, so parallel writers never share a temp file.
 * Math.random, not Web Crypto: the names need no secrecy (files are opened with `wx`, never followed), and the
 * first `globalThis.crypto` use loads the WebCrypto modules, ~2.5 ms of a hook's ~10 ms budget.
 */
export declare function uniqueSuffix(): string;
