/**
 * Runs asynchronous work one caller at a time per key, in the order callers came: a promise chain per key. Work
 * under several keys waits for each key in the order given (callers that always name keys in one order never wait
 * on each other crosswise). A key's chain is forgotten when its last work ends.
 */
export class KeyedSerializer {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier work under any of `keys` has ended (resolved or rejected). */
  run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const [first, ...rest] = keys;
    if (first === undefined) return work();
    return this.#one(first, () => this.run(rest, work));
  }

  async #one<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The chain's promises only ever resolve: a failed work must not fail the callers after it.
    const tail = previous === undefined ? mine : previous.then(() => mine);
    this.#tails.set(key, tail);
    try {
      if (previous !== undefined) await previous;
      return await work();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
