import { median } from './stats';

/** How `/alive` answered while some work ran: each ask's milliseconds, asked one after another until the work ended. */
export interface AliveDuring<T> {
  result: T;
  /** How long the work took, ms. */
  took: number;
  aliveMs: number[];
  longest: number;
  /** The row's value: the longest ask and the median over all of them. */
  summary: string;
}

/** Asks `${url}/alive` again and again while `work` runs (at least once). */
export async function aliveDuring<T>(url: string, work: () => Promise<T>): Promise<AliveDuring<T>> {
  const began = performance.now();
  const running = work();
  let working = true;
  void running.finally(() => (working = false)).catch(() => undefined);
  const aliveMs: number[] = [];
  while (working || aliveMs.length === 0) {
    const asked = performance.now();
    await (await fetch(`${url}/alive`)).arrayBuffer();
    aliveMs.push(performance.now() - asked);
  }
  const result = await running;
  const longest = Math.max(...aliveMs);
  return {
    result,
    took: performance.now() - began,
    aliveMs,
    longest,
    summary: `longest ${longest.toFixed(0)} ms, p50 ${median(aliveMs).toFixed(1)} ms over ${aliveMs.length} asks`,
  };
}
