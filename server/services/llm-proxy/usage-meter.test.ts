import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { UsageMeter } from './usage-meter';

const STREAM = [
  'data: {"choices":[{"delta":{"content":"Hé"}}],"usage":null}',
  '',
  'data: {"choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":30,"prompt_tokens_details":{"cached_tokens":1000}}}',
  '',
  'data: [DONE]',
  '',
  '',
].join('\n');

/** `body` through a meter in pieces cut at `cuts` (byte offsets); what came out, and the usage it read. */
async function metered(body: string, streamed: boolean, cuts: number[]) {
  const bytes = Buffer.from(body);
  const pieces = [0, ...cuts, bytes.length].slice(1).map((end, i, ends) => bytes.subarray(i === 0 ? 0 : ends[i - 1], end));
  const meter = new UsageMeter(streamed);
  const out = await text(Readable.from(pieces).pipe(meter));
  return { out, usage: meter.usage };
}

describe('UsageMeter', () => {
  it('reads the usage a stream ends with, wherever its pieces are cut (a character split included), and passes every byte on', async () => {
    for (let cut = 1; cut < Buffer.byteLength(STREAM); cut++) {
      const { out, usage } = await metered(STREAM, true, [cut]);
      expect(out).toBe(STREAM);
      expect(usage, `cut at ${cut}`).toEqual({ prompt_tokens: 1200, completion_tokens: 30, cache_read_tokens: 1000 });
    }
  });

  it('reads the usage of a JSON answer, and none from an error or a stream cut short', async () => {
    const answer = JSON.stringify({ choices: [{ message: { content: 'Hi' } }], usage: { prompt_tokens: 5, completion_tokens: 1 } });
    expect((await metered(answer, false, [7])).usage).toEqual({ prompt_tokens: 5, completion_tokens: 1, cache_read_tokens: 0 });
    expect((await metered('{"error":{"message":"Stub error 401"}}', false, [])).usage).toBeUndefined();
    expect((await metered(STREAM.slice(0, 60), true, [])).usage).toBeUndefined();
  });
});
