import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { JsonBodyError } from './http-errors';

/** Byte offset of a JSON syntax error, as V8 reports it, so the 422 can point at it. */
function errorPosition(message: string, text: string): number {
  const match = /position (\d+)/.exec(message);
  if (match) return Number(match[1]);
  return /end of JSON input/.test(message) ? text.length : 0;
}

/**
 * JSON bodies parsed with prototype-poisoning protection, and syntax errors answered like
 * FastAPI (`422 json_invalid` with the position) instead of Fastify's plain 400.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    // No body: a route that needs one answers `missing`, one that takes none goes ahead (clients
    // such as axios send the JSON content type on body-less POSTs too).
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Invalid JSON';
      // V8 quotes a piece of the body ('Unexpected token …, "ghp_abc" is not valid JSON'); it may be a secret.
      const reason = message.includes('is not valid JSON') ? `${message.split(',', 1)[0]} (not valid JSON)` : message;
      done(new JsonBodyError(reason, errorPosition(message, text)), undefined);
    }
  });
}
