import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { JsonBodyError, RequestValidationError } from './errors';
import { findStringProblem, MAX_JSON_DEPTH, tooDeepAt } from './json-limits';

/** Byte offset of a JSON syntax error, as V8 reports it, so the 422 can point at it. */
function errorPosition(message: string, text: string): number {
  const match = /position (\d+)/.exec(message);
  if (match) return Number(match[1]);
  return /end of JSON input/.test(message) ? text.length : 0;
}

// `fatal`: invalid UTF-8 is refused, never turned into U+FFFD behind the sender's back.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body as text, or the 422 for bytes that are not UTF-8. */
function decode(body: Buffer): string | JsonBodyError {
  try {
    return utf8.decode(body);
  } catch {
    return new JsonBodyError('Invalid UTF-8 in the body', 0);
  }
}

/** The 422 for a string the body may not hold; the string itself is not sent back (it may be a secret, or huge). */
function stringError(value: unknown): RequestValidationError | undefined {
  const found = findStringProblem(value);
  if (!found) return undefined;
  const loc = ['body', ...found.path];
  return new RequestValidationError([
    found.problem === 'too_long'
      ? { type: 'string_too_long', loc, msg: `Should have at most ${found.max} bytes`, ctx: { max_length: found.max } }
      : { type: 'string_unicode', loc, msg: 'Input should be a valid string, it holds a lone surrogate (not valid Unicode)' },
  ]);
}

/**
 * JSON bodies parsed with prototype-poisoning protection, and syntax errors reported like
 * FastAPI (`422 json_invalid` with the position) instead of Fastify's plain 400. Bodies that
 * are not UTF-8, nest deeper than MAX_JSON_DEPTH or hold strings the server refuses (see
 * `json-limits.ts`) are 422s too, checked before anything else reads them.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const text = decode(body as Buffer);
    if (text instanceof JsonBodyError) {
      done(text, undefined);
      return;
    }
    // No body: a route that needs one responds with `missing`, one that takes none goes ahead (clients
    // such as axios send the JSON content type on body-less POSTs too).
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    const deep = tooDeepAt(text);
    if (deep !== undefined) {
      done(
        new RequestValidationError([
          { type: 'json_invalid', loc: ['body', deep], msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` },
        ]),
        undefined,
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Invalid JSON';
      // V8 quotes a piece of the body ('Unexpected token …, "ghp_abc" is not valid JSON'); it may be a secret.
      const reason = message.includes('is not valid JSON') ? `${message.split(',', 1)[0]} (not valid JSON)` : message;
      done(new JsonBodyError(reason, errorPosition(message, text)), undefined);
      return;
    }
    done(stringError(parsed) ?? null, parsed);
  });
}
