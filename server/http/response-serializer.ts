import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';
import { isMemoised, jsonText, StoredJsonList, type WithStoredLists } from '../services/json-texts';

/*
 * Encoding a response with its zod schema validates every field and copies every object, which
 * costs more than the query on a long page. Responses whose service builds every field itself,
 * from values already read through a schema, are marked `builtToSchema` and sent as they are.
 * Tests keep the check: with `checked` each such response is encoded too and must come out
 * unchanged (nothing undeclared, no wrong type), or the request fails as an unmarked response
 * that does not fit its schema fails. Stored JSON (events) is spliced in as it is, not parsed and
 * written again (see StoredJsonList).
 */

const builtSchemas = new WeakSet<object>();

/** A marked response with stored lists, typed as the response it is sent as (the serializer splices the lists). */
export const storedResponse = <T>(response: WithStoredLists<T>): T => response as T;

/** Written member by member: a stored list, or a list of memoised items. */
const isSpliced = (value: unknown) => value instanceof StoredJsonList || (Array.isArray(value) && isMemoised(value[0]));

const hasSplicedList = (data: unknown): data is Record<string, unknown> =>
  typeof data === 'object' && data !== null && Object.values(data).some(isSpliced);

const hasStoredList = (data: unknown): data is Record<string, unknown> =>
  typeof data === 'object' && data !== null && Object.values(data).some((value) => value instanceof StoredJsonList);

/** The text of a list at a response's top level: stored texts spliced in as they are, memoised items' texts reused. */
function listText(value: unknown): string | undefined {
  if (value instanceof StoredJsonList) return `[${value.texts.join(',')}]`;
  if (isSpliced(value)) return `[${(value as unknown[]).map((item) => jsonText(item) ?? 'null').join(',')}]`;
  return JSON.stringify(value) as string | undefined;
}

/** `JSON.stringify(data)`, with stored lists and memoised values spliced in as they are. */
function stringifyResponse(data: unknown): string {
  if (isMemoised(data)) return jsonText(data)!;
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

/** Marks a response schema whose responses the service builds to it (see above); the same schema back. */
export function builtToSchema<Schema extends z.ZodMiniType>(schema: Schema): Schema {
  builtSchemas.add(schema);
  return schema;
}

type SerializerCompiler = typeof serializerCompiler;

/** Fastify's serializer compiler: zod's for every schema, plain JSON for `builtToSchema` ones (checked when `checked`). */
export function responseSerializerCompiler({ checked }: { checked: boolean }): SerializerCompiler {
  return (route) => {
    const encode = serializerCompiler(route);
    if (!builtSchemas.has(route.schema as object)) return encode;
    if (!checked) return stringifyResponse;
    return (data) => {
      const encoded = encode(withListsRead(data));
      const sent = stringifyResponse(data);
      if (!isDeepStrictEqual(JSON.parse(encoded), JSON.parse(sent)))
        throw new Error(
          `${route.method} ${route.url}: the response differs from its schema's encoding: ${encoded.slice(0, 300)} ≠ ${sent.slice(0, 300)}`,
        );
      return sent;
    };
  };
}
