import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ValidationErrorEntry } from '../../src/contract/validation-detail';
import type { DomainError, DomainErrorKind, Invalid } from '../domain-errors';

/*
 * What each domain error becomes on the wire, by route. OpenHands (whose responses we reproduce) uses
 * three body shapes — FastAPI's `{detail}`, and `{error}` / `{message}` on its older settings and
 * secrets routes — and not always the same status for the same refusal.
 */

/** The response for `error`, its words in `i18n`'s language (the request's). */
type ErrorResponse = (error: DomainError, i18n: I18n) => { status: number; body: Record<string, unknown> };

const detail =
  (status: number): ErrorResponse =>
  (error, i18n) => ({ status, body: { detail: error.messageIn(i18n) } });
const legacyError =
  (status: number): ErrorResponse =>
  (error, i18n) => ({ status, body: { error: error.messageIn(i18n) } });
const message =
  (status: number): ErrorResponse =>
  (error, i18n) => ({ status, body: { message: error.messageIn(i18n) } });
/** OpenAI's error body, which its clients (the agent's, on the LLM proxy) read. */
const openAiError =
  (status: number, type: string, code: string | null = null): ErrorResponse =>
  (error, i18n) => ({ status, body: { error: { message: error.messageIn(i18n), type, code } } });
/** The LLM proxy's route: an LLM it cannot reach is a bad gateway, which OpenAI clients retry. */
const llmProxy: Partial<ErrorResponses> = {
  unauthenticated: openAiError(401, 'invalid_request_error', 'invalid_api_key'),
  unavailable: openAiError(502, 'api_error'),
};
/** The agent's web search, on the LLM proxy's listener: Tavily's refusal, or no answer, is a bad gateway. */
const webSearchProxy: Partial<ErrorResponses> = { unavailable: detail(502) };
/** FastAPI's own 404 for a path parameter that names nothing. */
const fastApiNotFound: ErrorResponse = (_, i18n) => ({ status: 404, body: { detail: i18n._(msg`Not Found`) } });

/** FastAPI's 422 for values refused in request part `part` (`body`, `query`, `path`). */
const validation =
  (part: string): ErrorResponse =>
  (error, i18n) => ({
    status: 422,
    body: {
      detail: (error as Invalid).problems.map(({ loc, msg, input }): ValidationErrorEntry => ({
        type: 'value_error',
        loc: [part, ...loc],
        msg: `Value error, ${i18n._(msg)}`,
        input: input ?? null,
        ctx: { error: {} },
      })),
    },
  });

type ErrorResponses = Record<DomainErrorKind, ErrorResponse>;

const DEFAULT: ErrorResponses = {
  not_found: detail(404),
  conflict: detail(409),
  invalid: validation('body'),
  unavailable: detail(503),
  forbidden: detail(403),
  unauthenticated: detail(401),
  // Payment Required: what OpenHands' clients read as a spent budget.
  over_budget: detail(402),
};

const sandboxAction = { not_found: fastApiNotFound };
/** Too many ids in a batch get: a 400 that says how many may be asked for. */
const batch = { invalid: detail(400) };
const search = { invalid: validation('query') };
/** A route that is a batch get with `ids` and a search without. */
const batchOrSearch: Partial<ErrorResponses> = {
  invalid: (error, i18n) => ((error as Invalid).problems.some((p) => p.loc[0] === 'ids') ? batch : search).invalid(error, i18n),
};

/** Where a route responds otherwise than DEFAULT, keyed "METHOD /path" as the route is declared. */
const BY_ROUTE: Record<string, Partial<ErrorResponses>> = {
  'GET /api/settings': { not_found: legacyError(404) },
  'POST /api/secrets': { conflict: message(400) },
  'PUT /api/secrets/:name': { conflict: message(400), not_found: legacyError(404) },
  'DELETE /api/secrets/:name': { not_found: legacyError(404) },
  'GET /api/v1/sandboxes/search': search,
  'GET /api/user/installations': search,
  'GET /api/v1/sandboxes': batch,
  'POST /api/v1/sandboxes/:sandbox_id/pause': sandboxAction,
  'POST /api/v1/sandboxes/:sandbox_id/resume': sandboxAction,
  'DELETE /api/v1/sandboxes/:sandbox_id': sandboxAction,
  'DELETE /api/v1/sandboxes': sandboxAction,
  'GET /api/v1/sandboxes/:sandbox_id/logs': sandboxAction,
  'GET /api/v1/sandboxes/resources': batch,
  'GET /api/usage': search,
  'GET /api/usage/csv': search,
  'GET /api/v1/sandbox-specs/search': search,
  'GET /api/v1/sandbox-specs': batch,
  'GET /api/conversations': search,
  'GET /api/v1/app-conversations': batchOrSearch,
  'GET /api/v1/app-conversations/by-sandbox': batch,
  'GET /api/v1/app-conversations/search': search,
  'GET /api/v1/app-conversations/start-tasks': batch,
  'GET /api/v1/app-conversations/start-tasks/search': search,
  'GET /api/v1/events/search': search,
  'GET /api/v1/events': batch,
  'GET /api/v1/app-conversations/:conversation_id/workspace/diff': search,
  'GET /api/v1/app-conversations/:conversation_id/workspace/files': search,
  'GET /api/v1/app-conversations/:conversation_id/workspace/file': search,
  'GET /api/audit-logs': search,
  'GET /api/audit-logs/export': search,
  // On the LLM proxy's own listener (server/http/llm-proxy-app.ts), not the API's.
  'POST /v1/chat/completions': llmProxy,
  'POST /v1/web-search': webSearchProxy,
};

/** The routes BY_ROUTE names, for a test that each is a route the server has. */
export const routesWithOwnResponses = (): string[] => Object.keys(BY_ROUTE);

export function responseFor(route: string, error: DomainError, i18n: I18n): { status: number; body: Record<string, unknown> } {
  const respond = BY_ROUTE[route]?.[error.kind] ?? DEFAULT[error.kind];
  return respond(error, i18n);
}
