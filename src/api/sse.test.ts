import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sse';

function parse(chunks: string[]): SseMessage[] {
  const messages: SseMessage[] = [];
  const parser = createSseParser((message) => messages.push(message));
  for (const chunk of chunks) parser.push(chunk);
  return messages;
}

const STREAM = 'id: 1\ndata: {"a":1}\n\n: a comment\ndata: first\ndata: second\n\nevent: note\nid: 2\ndata:no space\n\n';
const EXPECTED: SseMessage[] = [
  { id: '1', event: 'message', data: '{"a":1}' },
  { id: undefined, event: 'message', data: 'first\nsecond' },
  { id: '2', event: 'note', data: 'no space' },
];

describe('createSseParser', () => {
  it('reads ids, events, multi-line data, and skips comments', () => {
    expect(parse([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same messages however the text is cut into chunks', () => {
    for (let size = 1; size <= 7; size++) {
      const chunks = STREAM.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(parse(chunks)).toEqual(EXPECTED);
    }
  });

  it('takes CR LF and CR line ends, also when CR and LF arrive in different chunks', () => {
    expect(parse(['id: 7\r', '\ndata: x\r\n\r', '\ndata: y\r\r'])).toEqual([
      { id: '7', event: 'message', data: 'x' },
      { id: undefined, event: 'message', data: 'y' },
    ]);
  });

  it('dispatches nothing for a message that is not finished, or has no data', () => {
    expect(parse(['id: 3\n\n', 'data: unfinished\n'])).toEqual([]);
  });

  it('ignores a byte order mark at the start', () => {
    expect(parse(['\uFEFFdata: x\n\n'])).toEqual([{ id: undefined, event: 'message', data: 'x' }]);
  });
});
