/*
 * Stored JSON spliced into responses: JSON texts a service already has (as the store keeps them)
 * are written into the response as they are, not parsed and written again. Services build
 * StoredJsonList; the response serializer (server/http/response-serializer.ts) writes the text
 * with `responseText`. See docs/performance.md.
 */

/**
 * A list of JSON texts as the store keeps them, each written by `JSON.stringify` (so parsing and
 * writing it again gives the same text): `responseText` splices them into the response as they are.
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

const hasStoredList = (data: unknown): data is Record<string, unknown> =>
  typeof data === 'object' && data !== null && Object.values(data).some((value) => value instanceof StoredJsonList);

/** `JSON.stringify(data)`, with the stored lists at its top level spliced in as they are. */
export function responseText(data: unknown): string {
  if (!hasStoredList(data)) return JSON.stringify(data);
  const members: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const text = value instanceof StoredJsonList ? `[${value.texts.join(',')}]` : (JSON.stringify(value) as string | undefined);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** `data` with its stored lists parsed, for a schema's encoder. */
export const withStoredListsRead = (data: unknown): unknown =>
  hasStoredList(data)
    ? Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value instanceof StoredJsonList ? value.toJSON() : value]))
    : data;
