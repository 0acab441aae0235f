import type { Row } from './results';
import type { BenchServers } from './servers';
import { median } from './stats';

/** How many bad sign-ins come at once, each for another account (so no account's limit stops them before their hash). */
const FLOOD = 40;
/** The longest `/alive` may take while they are checked. */
const GOAL_MS = 1000;

/**
 * `/alive` while a flood of bad sign-ins is checked: password hashes run a few at a time, so the
 * rest of the server keeps answering. The sign-ins go to `localhost` (no session cookie is set on
 * 127.0.0.1, where sandboxes are published), as a page of the server sends them.
 */
export async function signInFlood(servers: BenchServers): Promise<Row> {
  const origin = servers.url.replace('//127.0.0.1:', '//localhost:');
  const began = performance.now();
  const flood = Promise.all(
    Array.from({ length: FLOOD }, (_, index) =>
      fetch(`${origin}/sign-in`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `nobody-${index}@example.com`, password: 'not anyone’s password' }),
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      }),
    ),
  );
  let flooding = true;
  void flood.finally(() => (flooding = false));
  const alive: number[] = [];
  while (flooding || alive.length === 0) {
    const asked = performance.now();
    await (await fetch(`${servers.url}/alive`)).arrayBuffer();
    alive.push(performance.now() - asked);
  }
  const statuses = await flood;
  const took = performance.now() - began;
  const longest = Math.max(...alive);
  return {
    section: '2 throughput',
    measure: `/alive during ${FLOOD} bad sign-ins at once (each another account)`,
    value: `longest ${longest.toFixed(0)} ms, p50 ${median(alive).toFixed(1)} ms over ${alive.length} asks`,
    baseline: `the flood took ${(took / 1000).toFixed(1)} s (${statuses.filter((status) => status === 401).length} refused, ${statuses.filter((status) => status === 503).length} asked to wait)`,
    ratio: null,
    goal: `≤ ${GOAL_MS} ms`,
    met: longest <= GOAL_MS,
    data: { longestMs: longest, aliveMs: alive, statuses, floodMs: took },
  };
}
