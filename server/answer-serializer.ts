import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';

/*
 * Encoding an answer with its zod schema (validating every field, copying every object) was most
 * of the time of a long page: a search of 100 conversations spent more on it than on its query.
 * Answers whose service builds every field itself, from values already read through a schema,
 * are marked `builtToSchema` and sent as they are. Tests keep the check: with `checked` each
 * such answer is encoded too and must come out unchanged (nothing undeclared, no wrong type),
 * or the request fails as an unmarked answer that does not fit its schema fails. Stored JSON
 * (events) is spliced in as it is, not parsed and written again (see StoredJsonList).
 */

const builtSchemas = new WeakSet<object>();

/**
 * A list of JSON texts as the store keeps them, each written by `JSON.stringify` (so parsing and
 * writing it again gives the same text): a marked answer sends them spliced in as they are.
 */
export class StoredJsonList<Item> {
  declare readonly item?: Item;
  constructor(readonly texts: string[]) {}

  /** What the texts stand for, where an answer is encoded with its schema (tests). */
  toJSON(): Item[] {
    return this.texts.map((text) => JSON.parse(text) as Item);
  }
}

/** An answer of type `T` whose top-level lists may be stored texts (see StoredJsonList). */
export type WithStoredLists<T> = { [K in keyof T]: T[K] extends (infer Item)[] ? T[K] | StoredJsonList<Item> : T[K] };

/** A marked answer with stored lists, typed as the answer it is sent as (the serializer splices the lists). */
export const storedAnswer = <T>(answer: WithStoredLists<T>): T => answer as T;

/** Texts of settled values (see `settled`), written on their first answer; `''` until then. */
const settledTexts = new WeakMap<object, string>();

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}

/**
 * `value`, frozen through and through and marked, so that its text is written once and sent again
 * as it is whenever a marked answer is `value` or has it among the items of a top-level list
 * (a list whose first item is settled). For what a service answers again and again unchanged (the
 * settings, a sandbox whose status did not change): writing it was much of such a request's time.
 */
export function settled<T extends object>(value: T): T {
  deepFreeze(value);
  if (!settledTexts.has(value)) settledTexts.set(value, '');
  return value;
}

const isSettled = (value: unknown): value is object => typeof value === 'object' && value !== null && settledTexts.has(value);

/** `JSON.stringify(value)`, kept for a settled value. */
function textOf(value: unknown): string | undefined {
  if (!isSettled(value)) return JSON.stringify(value) as string | undefined;
  let text = settledTexts.get(value);
  if (!text) settledTexts.set(value, (text = JSON.stringify(value)));
  return text;
}

/** Written member by member: a stored list, or a list of settled items. */
const isSpliced = (value: unknown) => value instanceof StoredJsonList || (Array.isArray(value) && isSettled(value[0]));

const hasSplicedList = (data: unknown): data is Record<string, unknown> =>
  typeof data === 'object' && data !== null && Object.values(data).some(isSpliced);

const hasStoredList = (data: unknown): data is Record<string, unknown> =>
  typeof data === 'object' && data !== null && Object.values(data).some((value) => value instanceof StoredJsonList);

/** The text of a list at an answer's top level: stored texts spliced in as they are, settled items' texts reused. */
function listText(value: unknown): string | undefined {
  if (value instanceof StoredJsonList) return `[${value.texts.join(',')}]`;
  if (isSpliced(value)) return `[${(value as unknown[]).map((item) => textOf(item) ?? 'null').join(',')}]`;
  return JSON.stringify(value) as string | undefined;
}

/** `JSON.stringify(data)`, with stored lists and settled values spliced in as they are. */
function stringifyAnswer(data: unknown): string {
  if (isSettled(data)) return textOf(data)!;
  if (!hasSplicedList(data)) return JSON.stringify(data);
  const members: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const text = listText(value);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** `data` with its stored lists read, for the schema's encoder. */
const withListsRead = (data: unknown): unknown =>
  hasStoredList(data)
    ? Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value instanceof StoredJsonList ? value.toJSON() : value]))
    : data;

/** Marks a response schema whose answers the service builds to it (see above); the same schema back. */
export function builtToSchema<Schema extends z.ZodMiniType>(schema: Schema): Schema {
  builtSchemas.add(schema);
  return schema;
}

type SerializerCompiler = typeof serializerCompiler;

/** Fastify's serializer compiler: zod's for every schema, plain JSON for `builtToSchema` ones (checked when `checked`). */
export function answerSerializerCompiler({ checked }: { checked: boolean }): SerializerCompiler {
  return (route) => {
    const encode = serializerCompiler(route);
    if (!builtSchemas.has(route.schema as object)) return encode;
    if (!checked) return stringifyAnswer;
    return (data) => {
      const encoded = encode(withListsRead(data));
      const sent = stringifyAnswer(data);
      if (!isDeepStrictEqual(JSON.parse(encoded), JSON.parse(sent)))
        throw new Error(
          `${route.method} ${route.url}: the answer differs from its schema's encoding: ${encoded.slice(0, 300)} ≠ ${sent.slice(0, 300)}`,
        );
      return sent;
    };
  };
}
