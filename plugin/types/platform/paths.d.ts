/**
 * `path.join(folder, ...names)`, exactly, for every input; computed by concatenation when `folder` is absolute and
 * already normal (no empty, `.` or `..` segment, no trailing `/` but the root's) and each name is one plain segment,
 * which is every path the store builds under its resolved root.
 *
 * Why not path.join everywhere: it normalises its whole result in a character loop, and a hook call joins ~40 store
 * paths; on Node 22 that loop (and its separator test) then gets hot enough within the one call for V8 to optimise
 * both on a worker thread: +12 M instructions (~10 %) on every Claude Code SubagentStart, measured with callgrind
 * (docs/performance.md). The checks here are native string searches, which never get hot.
 */
export declare function joinPath(folder: string, ...names: string[]): string;
