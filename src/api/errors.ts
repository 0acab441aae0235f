import { t } from '@lingui/core/macro';
import { validationErrorBodySchema, type ValidationErrorEntry } from '../contract/validation-detail';
import { validationWords } from './validation-words';

export type ApiErrorKind = 'http' | 'network' | 'invalid-response';

/**
 * Every failed call becomes an ApiError: an HTTP error status (with the server's `detail`), a
 * server that could not be reached, or a response that does not match the contract.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly status: number,
    /** FastAPI validation entries of a 422, if that is what the server responded. */
    readonly validation: ValidationErrorEntry[] = [],
    readonly body?: unknown,
  ) {
    super(message);
  }

  /**
   * The server refused the session key. OpenHands also responds 401 `{"error": …}` for other
   * things (a git token a provider rejected): those are not about the session.
   */
  get isUnauthorized(): boolean {
    if (this.kind !== 'http' || this.status !== 401) return false;
    return !(this.body && typeof this.body === 'object' && typeof (this.body as { error?: unknown }).error === 'string');
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The sentence a person reads for an error response, whatever shape the server used. */
function messageFromBody(status: number, statusText: string, body: unknown): string {
  if (body && typeof body === 'object') {
    for (const key of ['detail', 'error', 'message'] as const) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  if (typeof body === 'string' && body.trim() && body.length < 300) return body.trim();
  return statusText ? t`The server responded ${status} ${statusText}` : t`The server responded ${status}`;
}

const rejectedOne = (why: string) => t`The server rejected one value: ${why}`;

export function errorFromResponse(status: number, statusText: string, body: unknown): ApiError {
  const parsed = validationErrorBodySchema.safeParse(body);
  if (parsed.success) {
    const count = parsed.data.detail.length;
    return new ApiError(
      // One value: which, and why (a page that reads, with no form to show it at, says only this).
      count === 1 ? rejectedOne(validationWords(parsed.data.detail[0]!)) : t`The server rejected ${count} values`,
      'http',
      status,
      parsed.data.detail,
      body,
    );
  }
  return new ApiError(messageFromBody(status, statusText, body), 'http', status, [], body);
}

/** A short explanation fit for a notification or an alert. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return t`Something went wrong`;
}

/** A request ended by its AbortSignal (a page left, a query cancelled): not a failure to show. */
export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';
