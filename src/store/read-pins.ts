// Readers that may pause mid-scan (a sliced query yields between batches) pin the store: while any
// pin is held, in-place rewrites of stored rows (hot-dictionary compaction) wait for the next sweep.

let pins = 0;

/** Takes a pin; call the returned function exactly once when the reader is done. */
export function pinReads(): () => void {
  pins++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    pins--;
  };
}

/** Whether some paused reader may still hold dictionary ids or row positions. */
export function readsPinned(): boolean {
  return pins > 0;
}
