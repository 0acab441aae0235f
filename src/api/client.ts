import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import type * as z from 'zod/mini';
import { safeParse } from 'zod/mini';
import { ApiError, errorFromResponse, isAbort } from './errors';
import { getSession, type Session } from './session';
import { SOURCE_LOCALE } from '../i18n/locales';

export interface RequestOptions<S extends z.ZodMiniType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** The contract schema the response must match. */
  schema: S;
  signal?: AbortSignal;
  /** Use these credentials instead of the signed-in session (to check them before signing in). */
  session?: Session;
}

export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const where = issue.path.join('.') || '(root)';
      const expected = 'expected' in issue ? String(issue.expected) : undefined;
      return expected ? t`${where}: expected ${expected}` : t`${where}: expected a different value`;
    })
    .join('; ');
}

/** The console's language, which a server of ours answers in (its refusals, its checks' messages). */
export const acceptLanguage = (): string => i18n.locale || SOURCE_LOCALE;

/** Sends a request with the session's base URL and key; a network failure as an ApiError that says where. */
export async function send(
  path: string,
  init: { method?: string; body?: unknown; accept: string; signal?: AbortSignal; session?: Session },
) {
  const session = init.session ?? getSession();
  const headers: Record<string, string> = { accept: init.accept, 'accept-language': acceptLanguage() };
  // No key: the session cookie goes with the request (same origin only).
  if (session?.apiKey) headers['X-Session-API-Key'] = session.apiKey;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(`${session?.baseUrl ?? ''}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    const where = session?.baseUrl;
    throw new ApiError(
      where
        ? t`Cannot reach ${where}. Check that it is running and reachable.`
        : t`Cannot reach the server. Check that it is running and reachable.`,
      'network',
      0,
    );
  }
}

/**
 * The one way the console calls the API: the session's base URL and key, JSON both ways, and
 * the response checked against the contract, so screens only ever see well-formed data.
 */
export async function apiRequest<S extends z.ZodMiniType>(path: string, options: RequestOptions<S>): Promise<z.output<S>> {
  const response = await send(path, { ...options, accept: 'application/json' });
  const body = await readBody(response);
  if (!response.ok) throw errorFromResponse(response.status, response.statusText, body);
  return checked(path, options.schema, body, response.status);
}

/** `body` as `schema` reads it, or an ApiError that says where it differs. */
export function checked<S extends z.ZodMiniType>(path: string, schema: S, body: unknown, status: number): z.output<S> {
  const parsed = safeParse(schema, body);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues);
    throw new ApiError(t`The server's response to ${path} is not in the expected shape (${issues})`, 'invalid-response', status, [], body);
  }
  return parsed.data;
}

/** A file the API sends as an attachment: its bytes, and its name from `content-disposition` (`fallbackName` without one). */
export async function apiDownload(path: string, fallbackName: string, signal?: AbortSignal): Promise<{ blob: Blob; name: string }> {
  const response = await send(path, { accept: '*/*', signal });
  if (!response.ok) throw errorFromResponse(response.status, response.statusText, await readBody(response));
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  return { blob: await response.blob(), name: encoded ? decodeURIComponent(encoded) : fallbackName };
}
