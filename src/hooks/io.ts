import type { ByteSource, InputSource } from './stdin';

/** The process facts a hook runs with; injected so tests can drive `runHook` without a child process. */
export interface HookIo {
  /** Read synchronously (a file, pipe or socket), or as a stream (a terminal, tests). */
  readonly stdin: ByteSource | InputSource;
  readonly write: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** The folder of the running bin (its siblings are the other bins); absent when run from sources. */
  readonly binDir?: string;
  /** The node running the hook, by absolute path: the recording commands run the CLI with the same one. */
  readonly execPath?: string;
}
