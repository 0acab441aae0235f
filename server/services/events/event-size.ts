/*
 * How big a stored event may be. An agent server is sandbox code: one that sends events of tens of
 * megabytes would grow the database and every reader's memory. A larger event is stored with its
 * longest texts cut, each saying how long it was.
 */

import { cutNote } from '../../../src/contract/events';
import { imageBytes, MAX_MESSAGE_IMAGE_BYTES } from '../../../src/contract/conversations';

/** The most a stored event's JSON may take. */
export const MAX_EVENT_BYTES = 256 * 1024;

/** Texts shorter than this are never cut: ids, kinds, short fields keep their meaning. */
const KEPT_CHARACTERS = 1024;

interface Text {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  value: string;
}

/** Every text of `value` longer than KEPT_CHARACTERS, with where it is; a message's images (`image_urls`) aside. */
function longTexts(value: unknown, found: Text[] = []): Text[] {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (typeof item === 'string' && item.length > KEPT_CHARACTERS) found.push({ parent: value, key: index, value: item });
      else longTexts(item, found);
    });
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'image_urls') continue;
      if (typeof item === 'string' && item.length > KEPT_CHARACTERS)
        found.push({ parent: value as Record<string, unknown>, key, value: item });
      else longTexts(item, found);
    }
  }
  return found;
}

/**
 * What a message's images take (data URLs under `llm_message.content[].image_urls`), which an
 * event may hold beside MAX_EVENT_BYTES of the rest: up to MAX_MESSAGE_IMAGE_BYTES, as the API
 * takes them; a cut image would be no image.
 */
const imageAllowance = (event: Record<string, unknown>) =>
  Math.min(imageBytes((event.llm_message as { content?: unknown } | undefined)?.content), MAX_MESSAGE_IMAGE_BYTES);

/**
 * `event` as JSON of at most `max` bytes: as it is when it fits; otherwise with its longest texts
 * cut (longest first), and, when that is not enough (an event of countless short fields), only
 * its id, kind, source and time, with a note.
 */
export function storedEventJson(event: Record<string, unknown>, max = MAX_EVENT_BYTES + imageAllowance(event)): string {
  const json = JSON.stringify(event);
  if (Buffer.byteLength(json) <= max) return json;
  const copy = JSON.parse(json) as Record<string, unknown>;
  const texts = longTexts(copy).sort((a, b) => b.value.length - a.value.length);
  let size = Buffer.byteLength(json);
  for (const text of texts) {
    if (size <= max) break;
    const excess = size - max;
    // Each character is at least one byte of JSON: cutting `excess` characters (and the note's) takes off at least `excess` bytes.
    const noteBytes = Buffer.byteLength(JSON.stringify(cutNote(text.value.length))) - 2; // as written in JSON: `\n` takes two bytes, `…` three
    const keep = Math.max(KEPT_CHARACTERS, text.value.length - excess - noteBytes);
    const cut = `${text.value.slice(0, keep)}${cutNote(text.value.length)}`;
    (text.parent as Record<string | number, unknown>)[text.key] = cut;
    size = Buffer.byteLength(JSON.stringify(copy));
  }
  if (size <= max) return JSON.stringify(copy);
  const { id, kind, source, timestamp } = event;
  return JSON.stringify({
    id,
    kind,
    source,
    timestamp,
    note: `Agent Console stored no more of this event: it took ${Buffer.byteLength(json)} bytes.`,
  });
}
