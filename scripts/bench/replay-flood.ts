import type { Row } from './results';
import type { BenchServers } from './servers';
import { aliveDuring } from './alive-during';

/** A large history: this many stored events of TEXT_BYTES each (about 64 MB). */
const EVENTS = 400;
const TEXT_BYTES = 160_000;
/** How many clients replay it at once. */
const STREAMS = 10;
/** The longest `/alive` may take meanwhile. */
const GOAL_MS = 1000;

/** Reads a conversation's event stream until `events` frames came; resolves with how many did. */
async function replay(servers: BenchServers, conversationId: string): Promise<number> {
  const controller = new AbortController();
  const response = await fetch(`${servers.url}/api/v1/app-conversations/${conversationId}/events/stream`, {
    headers: { 'x-session-api-key': servers.key },
    signal: controller.signal,
  });
  const decoder = new TextDecoder();
  let frames = 0;
  let carry = '';
  const idLines = (text: string) => text.match(/(^|\n)id: /g)?.length ?? 0;
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      frames += idLines(carry + text) - idLines(carry);
      carry = (carry + text).slice(-8);
      if (frames >= EVENTS) break;
    }
  } catch {
    // The server dropped the stream: the replay was not whole.
  }
  controller.abort();
  return frames;
}

/**
 * `/alive` while several clients replay a large stored history at once: the replay goes a page
 * at a time as each client reads, so the rest of the server keeps answering.
 */
export async function replayFlood(servers: BenchServers): Promise<Row> {
  const conversationId = (await servers.send({ cmd: 'events', count: EVENTS, textBytes: TEXT_BYTES })) as string;
  const during = await aliveDuring(servers.url, () => Promise.all(Array.from({ length: STREAMS }, () => replay(servers, conversationId))));
  const { result: received, took, aliveMs, longest } = during;
  return {
    section: '2 throughput',
    measure: `/alive while ${STREAMS} event streams replay ${EVENTS} stored events of ${TEXT_BYTES / 1000} kB`,
    value: during.summary,
    baseline: `the replays took ${(took / 1000).toFixed(1)} s (${received.filter((frames) => frames === EVENTS).length} of ${STREAMS} whole)`,
    ratio: null,
    goal: `≤ ${GOAL_MS} ms`,
    met: longest <= GOAL_MS && received.every((frames) => frames === EVENTS),
    data: { longestMs: longest, aliveMs, framesPerStream: received, replayMs: took },
  };
}
