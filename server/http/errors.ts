import type { I18n } from '@lingui/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ValidationErrorEntry } from '../../src/contract/validation-detail';
import { DomainError } from '../domain-errors';
import { responseFor } from './error-responses';
import { i18nOf } from '../i18n/server-i18n';

/*
 * Errors of the HTTP layer itself (a body that is not JSON, a request the contract refuses), and
 * the one handler that turns every error into a response: HTTP errors as they are, services'
 * domain errors through the route's table, anything else as a bare 500 (the log has the rest).
 */

/** An error that is the client's to fix, sent with its status and body as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
  }
}

/**
 * FastAPI's 422: `{"detail": [{type, loc, msg, input}]}`; `detailIn` words it in a request's
 * language where it has words of the server's own (the contract's checks).
 */
export class RequestValidationError extends HttpError {
  constructor(
    readonly detail: ValidationErrorEntry[],
    readonly detailIn: (i18n: I18n) => ValidationErrorEntry[] = () => detail,
  ) {
    super(422, { detail });
  }
}

/** A request without the body the route needs: FastAPI's `missing` at `["body"]`. */
export class MissingBodyError extends RequestValidationError {
  constructor() {
    super([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  }
}

/** The JSON parser's complaint, shaped like FastAPI's `json_invalid`. */
export class JsonBodyError extends RequestValidationError {
  constructor(reason: string, position: number) {
    super([{ type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: reason } }]);
  }
}

/** Maps Fastify's own errors (raised before a handler runs) to responses a client can act on. */
function fromFastify(error: FastifyError): HttpError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, { detail: 'Request body is too large' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, { detail: 'Unsupported media type: send application/json' });
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return new HttpError(status, { detail: error.message });
  return undefined;
}

/** "POST /api/secrets/:name": the route a request matched, as the error response table names it. */
function routeOf(request: FastifyRequest): string {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return `${method} ${request.routeOptions.url ?? request.url.split('?', 1)[0]}`;
}

/** The one place that decides what an error looks like on the wire. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) {
      const { status, body } = responseFor(routeOf(request), error, i18nOf(request));
      return reply.status(status).send(body);
    }
    if (error instanceof RequestValidationError) return reply.status(422).send({ detail: error.detailIn(i18nOf(request)) });
    const known = error instanceof HttpError ? error : fromFastify(error);
    if (known) return reply.status(known.statusCode).send(known.body);
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ detail: 'Internal Server Error' });
  });
}
