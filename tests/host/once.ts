// A host test file finds its Claude Code (and installs agent-session from npm) lazily, so that only the tests that need
// one pay for it, and once: a failure then fails every test that needs it, with the first attempt's error, and is not
// tried again by each of them.

/** `make`, called at most once: every call answers its value, or throws its error again. */
export function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | { readonly error: unknown } | undefined;
  return () => {
    if (made === undefined) {
      try {
        made = { value: make() };
      } catch (error) {
        made = { error };
      }
    }
    if ('error' in made) throw made.error;
    return made.value;
  };
}

/** `make`, called at most once for each key, as `once` is. */
export function oncePer<T>(make: (key: string) => T): (key: string) => T {
  const byKey = new Map<string, () => T>();
  return (key) => {
    let made = byKey.get(key);
    if (made === undefined) {
      made = once(() => make(key));
      byKey.set(key, made);
    }
    return made();
  };
}
