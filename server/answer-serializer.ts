import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';

/*
 * Encoding an answer with its zod schema (validating every field, copying every object) was most
 * of the time of a long page: a search of 100 conversations spent more on it than on its query.
 * Answers whose service builds every field itself, from values already read through a schema,
 * are marked `builtToSchema` and sent as they are. Tests keep the check: with `checked` each
 * such answer is encoded too and must come out unchanged (nothing undeclared, no wrong type),
 * or the request fails as an unmarked answer that does not fit its schema fails.
 */

const builtSchemas = new WeakSet<object>();

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
    if (!checked) return (data) => JSON.stringify(data);
    return (data) => {
      const encoded = encode(data);
      const sent = JSON.stringify(data);
      if (!isDeepStrictEqual(JSON.parse(encoded), JSON.parse(sent)))
        throw new Error(
          `${route.method} ${route.url}: the answer differs from its schema's encoding: ${encoded.slice(0, 300)} ≠ ${sent.slice(0, 300)}`,
        );
      return sent;
    };
  };
}
