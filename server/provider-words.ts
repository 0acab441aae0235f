/*
 * What another service said when it refused a request, for a person to read: the short
 * explanation a JSON error carries, never the body itself. A URL a user points at an internal
 * service (an LLM base URL, a git host, an MCP server) must not turn that service's responses into
 * error messages the console shows.
 */

/** At most this much of what a service said. */
const MAX_LENGTH = 160;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The explanation in a JSON error (`message`, `error.message`, `error_description`, or `error` as
 * text), on one line and cut at MAX_LENGTH; `''` when it has none.
 */
export function providerWords(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const fields = body as { message?: unknown; error?: unknown; error_description?: unknown };
  const nested = fields.error && typeof fields.error === 'object' ? text((fields.error as { message?: unknown }).message) : undefined;
  const words = (text(fields.message) ?? nested ?? text(fields.error_description) ?? text(fields.error) ?? '').replace(/\s+/g, ' ').trim();
  return words.length > MAX_LENGTH ? `${words.slice(0, MAX_LENGTH - 1)}…` : words;
}
