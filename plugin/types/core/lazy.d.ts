/**
 * A value built on first use, then kept. For zod schemas a process may never need: each hook call is a fresh
 * process, and building every schema at load cost each call several million instructions (docs/performance.md).
 */
export declare function lazily<T>(build: () => T): () => T;
