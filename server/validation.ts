import type { FastifySchemaCompiler } from 'fastify';
import { type $ZodType, safeParse } from 'zod/v4/core';
import { toValidationDetail } from '../src/contract/validation-error';
import { MissingBodyError, RequestValidationError } from './errors';

/** Where FastAPI says a bad value came from (`loc[0]`), by Fastify's name for the request part. */
const LOC_ROOT: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/**
 * Validates request parts with the zod contract and answers failures the way FastAPI does, with
 * every issue, its `loc` and the offending `input`.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    // FastAPI's word for a request without a body; zod alone would say "not an object".
    if (httpPart === 'body' && (data === undefined || data === null)) {
      return { error: new MissingBodyError() };
    }
    const result = safeParse(schema, data, { reportInput: true });
    if (result.success) return { value: result.data };
    const root = LOC_ROOT[httpPart ?? 'body'] ?? 'body';
    return { error: new RequestValidationError(toValidationDetail(result.error.issues, [root])) };
  };
