import { describe, expect, it } from 'vitest';
import { storedEventJson } from './event-size';

const event = (fields: Record<string, unknown>) => ({
  id: 'e1',
  kind: 'ObservationEvent',
  source: 'environment',
  timestamp: 't',
  ...fields,
});

describe('storedEventJson', () => {
  it('keeps an event that fits as it is', () => {
    const small = event({ observation: { content: 'short' } });
    expect(storedEventJson(small, 4096)).toBe(JSON.stringify(small));
  });

  it('cuts the longest texts first, and no more than needed, each saying how long it was', () => {
    const stored = JSON.parse(storedEventJson(event({ a: 'a'.repeat(20_000), b: 'b'.repeat(3000), c: 'short' }), 10_000));
    expect(stored.a).toMatch(/^a+\n… \[cut by Agent Console: 20000 characters in all\]$/);
    expect(stored.b).toBe('b'.repeat(3000));
    expect(stored.c).toBe('short');
    expect(JSON.stringify(stored).length).toBeLessThanOrEqual(10_000);
    // Multi-byte texts are measured in bytes.
    expect(Buffer.byteLength(storedEventJson(event({ a: 'é'.repeat(20_000) }), 10_000))).toBeLessThanOrEqual(10_000);
  });

  it("keeps a message's images whole beside the rest, which is cut as before", () => {
    const image = `data:image/png;base64,${'A'.repeat(2 * 1024 * 1024)}`;
    const message = {
      ...event({}),
      kind: 'MessageEvent',
      source: 'user',
      llm_message: {
        role: 'user',
        content: [
          { type: 'text', text: 't'.repeat(400_000) },
          { type: 'image', image_urls: [image] },
        ],
      },
    };
    const stored = JSON.parse(storedEventJson(message));
    expect(stored.llm_message.content[1].image_urls[0]).toBe(image);
    expect(stored.llm_message.content[0].text).toMatch(/\[cut by Agent Console: 400000 characters in all\]$/);
    expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThanOrEqual(256 * 1024 + image.length);
  });

  it('keeps only what names the event when cutting texts is not enough', () => {
    const many = Object.fromEntries(Array.from({ length: 2000 }, (_, index) => [`field${index}`, 'value']));
    const stored = JSON.parse(storedEventJson(event(many), 10_000));
    expect(stored).toEqual({
      id: 'e1',
      kind: 'ObservationEvent',
      source: 'environment',
      timestamp: 't',
      note: expect.stringMatching(/^Agent Console stored no more of this event: it took \d+ bytes\.$/),
    });
  });
});
