import * as z from 'zod/mini';
import { apiRequest } from './client';

/*
 * What the server can do, read from its OpenAPI document (`GET /openapi.json`, open without a
 * key; OpenHands serves one too). A document that cannot be read means "assume it can".
 */

type JsonObject = Record<string, unknown>;

const member = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as JsonObject)[key] : undefined;

const at = (value: unknown, ...keys: string[]): unknown => keys.reduce(member, value);

/** Follows a local `$ref` (`#/components/schemas/…`) to the schema it names. */
function resolve(document: unknown, schema: unknown): unknown {
  const ref = member(schema, '$ref');
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  return at(
    document,
    ...ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~')),
  );
}

/** Whether an object schema offers `property`, also through `allOf`/`anyOf`/`oneOf` (as Pydantic nests them). */
function offersProperty(document: unknown, schema: unknown, property: string, depth = 0): boolean {
  const resolved = resolve(document, schema);
  if (depth > 8 || resolved === undefined) return false;
  if (at(resolved, 'properties', property) !== undefined) return true;
  return ['allOf', 'anyOf', 'oneOf'].some((key) => {
    const parts = member(resolved, key);
    return Array.isArray(parts) && parts.some((part) => offersProperty(document, part, property, depth + 1));
  });
}

/**
 * Whether `PUT /api/secrets/{name}` can change a secret's value. OpenHands ignores `value` there
 * (and still answers 200); its document says so by leaving `value` out of the request body.
 */
export async function canUpdateSecretValue(signal?: AbortSignal): Promise<boolean> {
  let document: unknown;
  try {
    document = await apiRequest('/openapi.json', { schema: z.unknown(), signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return true;
  }
  if (member(document, 'paths') === undefined) return true; // not an OpenAPI document
  const body = at(document, 'paths', '/api/secrets/{name}', 'put', 'requestBody', 'content', 'application/json', 'schema');
  return offersProperty(document, body, 'value');
}
