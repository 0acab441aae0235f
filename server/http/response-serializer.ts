import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';
import { responseText, withStoredListsRead, type WithStoredLists } from '../services/json-texts';

/*
 * Encoding a response with its zod schema validates every field and copies every object, which
 * costs more than the query on a long page. Responses whose service builds every field itself,
 * from values already read through a schema, are marked `builtToSchema` and sent as they are
 * (their stored JSON spliced in: see json-texts.ts). Tests keep the check: with `checked` each
 * such response is encoded too and must come out unchanged (nothing undeclared, no wrong type),
 * or the request fails as an unmarked response that does not fit its schema fails. See
 * docs/performance.md.
 */

const builtSchemas = new WeakSet<object>();

/** A marked response with stored lists, typed as the response it is sent as (the serializer splices the lists). */
export const storedResponse = <T>(response: WithStoredLists<T>): T => response as T;

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
    if (!checked) return responseText;
    return (data) => {
      const encoded = encode(withStoredListsRead(data));
      const sent = responseText(data);
      if (!isDeepStrictEqual(JSON.parse(encoded), JSON.parse(sent)))
        throw new Error(
          `${route.method} ${route.url}: the response differs from its schema's encoding: ${encoded.slice(0, 300)} ≠ ${sent.slice(0, 300)}`,
        );
      return sent;
    };
  };
}
