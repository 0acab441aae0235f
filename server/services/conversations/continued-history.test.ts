import { describe, expect, it } from 'vitest';
import { continuedHistory } from './continued-history';

/** A stored event of `bytes` or so, by `source`. */
const record = (seq: number, kind: string, source: string, bytes = 100) => ({
  seq,
  kind,
  source,
  body: JSON.stringify({ id: `e${seq}`, kind, source, text: 'x'.repeat(bytes) }),
});

/** A conversation's events as the store pages them, and how many rows were ever read at once. */
function stored(records: ReturnType<typeof record>[]) {
  let largestPage = 0;
  return {
    page: async (afterSeq: number, limit: number) => {
      const rows = records.filter((r) => r.seq > afterSeq).slice(0, limit);
      largestPage = Math.max(largestPage, rows.length);
      return rows;
    },
    largestPage: () => largestPage,
  };
}

describe('the history a conversation goes on from in a new sandbox', () => {
  it('is all of it when it is short', async () => {
    const events = [record(1, 'SystemPromptEvent', 'agent'), record(2, 'MessageEvent', 'user'), record(3, 'ActionEvent', 'agent')];
    const { history, left_out } = await continuedHistory(stored(events).page);
    expect(history.map((event) => event.id)).toEqual(['e1', 'e2', 'e3']);
    expect(left_out).toBe(0);
  });

  it('is the task and the newest events within the budget when it is long, read a page at a time', async () => {
    const events = [
      record(1, 'SystemPromptEvent', 'agent', 1000),
      record(2, 'MessageEvent', 'user', 1000),
      ...Array.from({ length: 500 }, (_, i) => record(3 + i, 'ObservationEvent', 'environment', 10_000)),
    ];
    const source = stored(events);
    const { history, left_out } = await continuedHistory(source.page, 100_000);
    // The system prompt is among what was left out; the task is kept, then the newest, in order.
    expect(history[0]?.id).toBe('e2');
    expect(history.at(-1)?.id).toBe('e502');
    expect(history.map((event) => Number(event.id.slice(1)))).toEqual(
      [...history.map((event) => Number(event.id.slice(1)))].sort((a, b) => a - b),
    );
    expect(JSON.stringify(history).length).toBeLessThanOrEqual(100_000);
    expect(history.length + left_out).toBe(events.length);
    expect(left_out).toBeGreaterThan(490);
    expect(source.largestPage()).toBeLessThanOrEqual(64);
  });
});
