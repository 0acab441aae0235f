import type { Row } from './results';
import type { BenchServers } from './servers';
import { aliveDuring } from './alive-during';

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
  const during = await aliveDuring(servers.url, () =>
    Promise.all(
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
    ),
  );
  const { result: statuses, took, aliveMs, longest } = during;
  return {
    section: '2 throughput',
    measure: `/alive during ${FLOOD} bad sign-ins at once (each another account)`,
    value: during.summary,
    baseline: `the flood took ${(took / 1000).toFixed(1)} s (${statuses.filter((status) => status === 401).length} refused, ${statuses.filter((status) => status === 503).length} asked to wait)`,
    ratio: null,
    goal: `≤ ${GOAL_MS} ms`,
    met: longest <= GOAL_MS,
    data: { longestMs: longest, aliveMs, statuses, floodMs: took },
  };
}
