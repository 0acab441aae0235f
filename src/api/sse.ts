/**
 * A parser for `text/event-stream` as the HTML standard defines it (§9.2.6), fed text in chunks
 * of any size: a line, a CR LF pair or a message may be split across chunks.
 */

export interface SseMessage {
  /** The `id:` of this message; `undefined` when it had none (the stream's transient frames). */
  id: string | undefined;
  event: string;
  data: string;
}

export function createSseParser(onMessage: (message: SseMessage) => void) {
  let pending = '';
  let atStart = true;
  /** The last chunk ended with CR: an LF first in the next one belongs to that line end. */
  let skipLineFeed = false;
  let data: string[] = [];
  let id: string | undefined;
  let event = '';

  const dispatch = () => {
    if (data.length > 0) onMessage({ id, event: event || 'message', data: data.join('\n') });
    data = [];
    id = undefined;
    event = '';
  };

  const processLine = (line: string) => {
    if (line === '') return dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  };

  return {
    push(chunk: string) {
      if (atStart && chunk.length > 0) {
        if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1);
        atStart = false;
      }
      const text = pending + chunk;
      let start = 0;
      // What is pending has no line end (it would have been processed): scan only the new text.
      for (let i = pending.length; i < text.length; i++) {
        const char = text[i];
        if (skipLineFeed) {
          skipLineFeed = false;
          if (char === '\n') {
            start = i + 1;
            continue;
          }
        }
        if (char === '\r' || char === '\n') {
          processLine(text.slice(start, i));
          start = i + 1;
          skipLineFeed = char === '\r';
        }
      }
      pending = text.slice(start);
    },
  };
}
