/*
 * What a service hands to the response serializer (server/http/response-serializer.ts) so that
 * JSON it already has is not parsed and written again: stored texts, and values memoised with
 * their text. Services build these; only the serializer reads them.
 */

/**
 * A list of JSON texts as the store keeps them, each written by `JSON.stringify` (so parsing and
 * writing it again gives the same text): the serializer splices them into the response as they are.
 */
export class StoredJsonList<Item> {
  declare readonly item?: Item;
  constructor(readonly texts: string[]) {}

  /** What the texts stand for, where a response is encoded with its schema (tests). */
  toJSON(): Item[] {
    return this.texts.map((text) => JSON.parse(text) as Item);
  }
}

/** A response of type `T` whose top-level lists may be stored texts (see StoredJsonList). */
export type WithStoredLists<T> = { [K in keyof T]: T[K] extends (infer Item)[] ? T[K] | StoredJsonList<Item> : T[K] };

/** Texts of memoised values (see `memoised`), written when first serialised; `''` until then. */
const memoisedTexts = new WeakMap<object, string>();

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}

/**
 * `value`, frozen through and through and marked, so that its JSON text is written once and sent
 * again as it is whenever a response is `value` or has it among the items of a top-level list (a
 * list whose first item is memoised). For what a service returns again and again unchanged (the
 * settings, a sandbox whose status did not change). Frozen, so the text cannot go stale.
 */
export function memoised<T extends object>(value: T): T {
  deepFreeze(value);
  if (!memoisedTexts.has(value)) memoisedTexts.set(value, '');
  return value;
}

export const isMemoised = (value: unknown): value is object => typeof value === 'object' && value !== null && memoisedTexts.has(value);

/** `JSON.stringify(value)`, written once for a memoised value. */
export function jsonText(value: unknown): string | undefined {
  if (!isMemoised(value)) return JSON.stringify(value) as string | undefined;
  let text = memoisedTexts.get(value);
  if (!text) memoisedTexts.set(value, (text = JSON.stringify(value)));
  return text;
}
