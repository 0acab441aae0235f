import type { AgentEvent } from '../../../src/contract/events';
import type { EventRecord } from '../../store/events-store';

/**
 * The most of a conversation's stored history that goes to the agent in a new sandbox. A long
 * conversation's whole history was one request of tens of megabytes, read and parsed at once,
 * which stalled the server; the agent condenses what it has anyway, and every event stays stored
 * and shown here.
 */
export const CONTINUED_HISTORY_BYTES = 8 * 1024 * 1024;

/** Events read at a time. */
const PAGE = 64;

/**
 * The history a conversation goes on from in a new sandbox, in its order: its first message from
 * the user (the task) and its newest events, within `budget` bytes of stored JSON; and how many
 * events were left out. Read a page at a time (`page(afterSeq, limit)`), so no more than the budget
 * and a page is held at once.
 */
export async function continuedHistory(
  page: (afterSeq: number, limit: number) => Promise<Pick<EventRecord, 'seq' | 'kind' | 'source' | 'body'>[]>,
  budget = CONTINUED_HISTORY_BYTES,
): Promise<{ history: AgentEvent[]; left_out: number }> {
  let task: { seq: number; body: string } | undefined;
  const newest: { seq: number; body: string; bytes: number }[] = [];
  let bytes = 0;
  let leftOut = 0;
  for (let afterSeq = 0; ;) {
    const records = await page(afterSeq, PAGE);
    for (const record of records) {
      afterSeq = record.seq;
      if (task === undefined && record.kind === 'MessageEvent' && record.source === 'user') {
        task = { seq: record.seq, body: record.body };
        budget -= Buffer.byteLength(record.body);
      } else {
        newest.push({ seq: record.seq, body: record.body, bytes: Buffer.byteLength(record.body) });
        bytes += newest.at(-1)!.bytes;
      }
      while (bytes > budget && newest.length > 0) {
        bytes -= newest.shift()!.bytes;
        leftOut++;
      }
    }
    if (records.length < PAGE) break;
  }
  const kept = [...(task === undefined ? [] : [task]), ...newest].sort((a, b) => a.seq - b.seq);
  return { history: kept.map((entry) => JSON.parse(entry.body) as AgentEvent), left_out: leftOut };
}
