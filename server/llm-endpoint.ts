/** Where the `openai` client sends requests without a base URL. */
const OPENAI_URL = 'https://api.openai.com/v1';

/** The endpoint a base URL names, for comparing and calling: no trailing slash, OpenAI's for none. */
export const llmEndpoint = (url: string | null | undefined) => (url ?? '').trim().replace(/\/+$/, '') || OPENAI_URL;

/** A URL as it may be shown or logged: without user, password, query or fragment, which can hold keys. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}

/** Why a connection failed, as deep as the cause goes (`fetch failed` → `connect ECONNREFUSED …`). */
export function rootCause(error: unknown): string {
  let cause = error;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  return cause instanceof Error ? cause.message : String(cause);
}
