/**
 * Runs asynchronous work one caller at a time per key, in the order callers came: a promise chain per key. Work
 * under several keys waits for each key in the order given (callers that always name keys in one order never wait
 * on each other crosswise). A key's chain is forgotten when its last work ends.
 */
export declare class KeyedSerializer {
    #private;
    /** Runs `work` once every earlier work under any of `keys` has ended (resolved or rejected). */
    run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T>;
}
