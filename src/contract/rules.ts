import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';

/**
 * A check's problem as a custom issue (a Pydantic `value_error` on the wire): its `message` in the
 * language Lingui's shared instance speaks (the console's; English on the server), and the
 * message itself as `params.description`, which the server words in each request's language.
 */
export function customIssue(description: MessageDescriptor, where: { input: unknown; path?: PropertyKey[] }) {
  const message = i18n.locale ? i18n._(description) : (description.message ?? description.id);
  return { code: 'custom' as const, message, params: { description }, ...where };
}

/**
 * A check that runs `problem` on the value and reports its message as a custom issue.
 * `undefined` means the value is fine.
 */
export function rule<T>(problem: (value: T) => MessageDescriptor | undefined) {
  return z.superRefine<T>((value, ctx) => {
    const description = problem(value);
    if (description !== undefined) ctx.addIssue(customIssue(description, { input: value }));
  });
}

/** zod reports a string sent for an integer as "expected number"; this message says integer. */
export const INTEGER_EXPECTED = 'Input should be a valid integer';

/** An integer field whose type errors say "integer" (see `toValidationDetail`). */
export const integer = () =>
  z.int({ error: (issue) => (issue.code === 'invalid_type' && issue.input !== undefined ? INTEGER_EXPECTED : undefined) });

/** `'a', 'b' or 'c'`, as Pydantic lists allowed values. */
export function describeValues(values: readonly unknown[]): string {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/*
 * Sizes a request may have (never applied to stored data or to responses read by the console, so
 * data stored before these limits still loads). More would make pages unusable (thousands of MCP
 * servers make the MCP page far too slow to render) without serving anyone.
 */
export const MAX_NAME_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 1000;
export const MAX_MCP_SERVERS_PER_KIND = 100;
/** Arguments of one stdio server, and environment variables of one. */
export const MAX_ARGS = 100;
export const MAX_ENV_ENTRIES = 100;
export const MAX_CUSTOM_SECRETS = 500;

/** A description a request may set. */
export const description = () => z.string().check(z.maxLength(MAX_DESCRIPTION_LENGTH));

/** Environment variable names (also the names of custom secrets, which become env vars). */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What a value that becomes part of a process (an environment variable, an argument, a command)
 * cannot hold: the NUL byte ends a C string, so no process could be started with it.
 */
export function processTextProblem(value: string): MessageDescriptor | undefined {
  return value.includes('\0') ? NUL_PROBLEM : undefined;
}
export const NUL_PROBLEM = msg`Must not contain a NUL character (\\0): no process can be given one`;

/** A string that becomes part of a process: see processTextProblem. */
export const processText = () => z.string().check(rule(processTextProblem));

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s;

/** Splits a URL the way Python's `urllib.parse.urlparse` does, as far as OpenHands' checks need. */
function splitUrl(url: string): { scheme: string; netloc: string } {
  const match = SCHEME.exec(url);
  if (!match) return { scheme: '', netloc: '' };
  const rest = match[2] ?? '';
  const netloc = rest.startsWith('//') ? (/^\/\/([^/?#]*)/.exec(rest)?.[1] ?? '') : '';
  return { scheme: (match[1] ?? '').toLowerCase(), netloc };
}

/**
 * OpenHands' `_validate_mcp_url` checks, in its order and with its messages. The value is already
 * trimmed.
 */
export function mcpUrlProblem(url: string): MessageDescriptor | undefined {
  if (url === '') return msg`URL cannot be empty`;
  const { scheme, netloc } = splitUrl(url);
  if (!scheme) return msg`URL must include a scheme (http:// or https://)`;
  if (!netloc) return msg`URL must include a valid domain/host`;
  if (!['http', 'https', 'ws', 'wss'].includes(scheme)) return msg`URL scheme must be http, https, ws, or wss`;
  try {
    new URL(url);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return msg`Invalid URL format: ${reason}`;
  }
  return undefined;
}

/** An http(s) base URL such as an LLM endpoint; empty is allowed (it means "not set"). */
export function httpUrlProblem(url: string): MessageDescriptor | undefined {
  if (url.trim() === '') return undefined;
  const { scheme, netloc } = splitUrl(url.trim());
  if (scheme !== 'http' && scheme !== 'https') return msg`URL must start with http:// or https://`;
  if (!netloc) return msg`URL must include a valid domain/host`;
  try {
    new URL(url.trim());
  } catch {
    return msg`URL is not valid`;
  }
  return undefined;
}

// Deliberately simple: one "@", no spaces, a dot in the domain. Real validation is the inbox.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Empty is allowed (it means "not set"). */
export function emailProblem(email: string): MessageDescriptor | undefined {
  if (email.trim() === '' || EMAIL.test(email.trim())) return undefined;
  return msg`Enter an email address such as name@example.com`;
}
