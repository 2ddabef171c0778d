// The tests' look at processes they started and no longer hold a handle to (a detached server, a relay found by its
// socket).

/** Whether process `pid` is still there (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
