import type { I18n } from '@lingui/core';
import type { FastifySchemaCompiler } from 'fastify';
import type { $ZodType } from 'zod/v4/core';
import { laxSafeParse } from './lax-input';
import { toValidationDetail } from './validation-detail';
import { type ValidationErrorEntry } from '../../src/contract/validation-detail';
import { MissingBodyError, RequestValidationError } from './errors';

/** Where a refused value may be a secret: its `input` is not sent back (it would end up in logs and screenshots). */
const SECRET_LOCS = new Set([
  'token',
  'value',
  'secret',
  'api_key',
  'llm_api_key',
  'search_api_key',
  'sandbox_api_key',
  'provider_tokens',
  'custom_secrets',
  'secrets_store',
  'env',
  // a stdio server's command line often carries a token (`--api-key …`)
  'args',
  'key',
]);

/** Routes whose whole body is a secret (a bare JSON string there is the key itself). */
const SECRET_BODY_ROUTES = new Set(['/sign-in']);

export function withoutSecretInputs(detail: ValidationErrorEntry[]): ValidationErrorEntry[] {
  return detail.map((entry) =>
    entry.loc.some((part) => typeof part === 'string' && SECRET_LOCS.has(part)) ? { ...entry, input: null } : entry,
  );
}

/** Where FastAPI says a bad value came from (`loc[0]`), by Fastify's name for the request part. */
const LOC_ROOT: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/**
 * Validates request parts with the zod contract and reports failures the way FastAPI does, with
 * every issue, its `loc` and the offending `input`. Numbers and booleans are first read as
 * Pydantic's lax mode reads them (`"5"`, `"yes"`, `1`), so clients written for OpenHands work.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema, httpPart, url }) =>
  (data) => {
    // FastAPI's word for a request without a body; zod alone would say "not an object".
    if (httpPart === 'body' && (data === undefined || data === null)) {
      return { error: new MissingBodyError() };
    }
    const result = laxSafeParse(schema, data);
    if (result.success) return { value: result.data };
    const root = LOC_ROOT[httpPart ?? 'body'] ?? 'body';
    const secretBody = root === 'body' && SECRET_BODY_ROUTES.has(url);
    const detailIn = (i18n?: I18n) => {
      const detail = withoutSecretInputs(toValidationDetail(result.issues, [root], i18n));
      return secretBody ? detail.map((entry) => ({ ...entry, input: null })) : detail;
    };
    return { error: new RequestValidationError(detailIn(), detailIn) };
  };
