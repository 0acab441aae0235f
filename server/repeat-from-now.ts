/**
 * Runs `task` now and then every `everyMs` until the returned stop is called. A failed round is
 * handed to `failed` and the next round runs anyway. The timer keeps no process alive.
 */
export function repeatFromNow(everyMs: number, task: () => Promise<unknown>, failed: (error: unknown) => void): () => void {
  const run = () => void task().catch(failed);
  run();
  const timer = setInterval(run, everyMs).unref();
  return () => clearInterval(timer);
}
