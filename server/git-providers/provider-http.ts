import { PROVIDER_NAMES } from '../../src/contract/secrets';
import type { TaskProvider } from '../../src/contract/suggested-tasks';
import { authorizationOf, restApiBase } from './token-verifier';

/*
 * Asking a git provider's API with the user's stored token: its REST API (JSON), and GitHub's and
 * GitLab's GraphQL. Failures are one of three errors, which the services turn into responses.
 */

/** Providers whose repositories and branches this server reads. */
export type ApiProvider = 'github' | 'gitlab' | 'bitbucket';
export const API_PROVIDERS: readonly ApiProvider[] = ['github', 'gitlab', 'bitbucket'];

export interface ProviderAccount<P extends TaskProvider = ApiProvider> {
  provider: P;
  token: string;
  host: string | null;
}

/** The provider could not be asked, or did not respond like its API. */
export class ProviderUnreachable extends Error {}
/** The provider is rate limiting this token: the lists are empty for now, the token is fine. */
export class ProviderRateLimited extends ProviderUnreachable {}
/** The provider has nothing at that address (or nothing the token may see): an empty list where a list was asked. */
export class ProviderNotFound extends ProviderUnreachable {}
/** The provider responded, and refused the token. */
export class ProviderRefusedToken extends Error {}

const TIMEOUT_MS = 8000;
/** Redirects followed within the API's own origin (Bitbucket sends a pull request's diffstat to the repository's). */
const MAX_REDIRECTS = 3;

export interface ApiResponse {
  body: unknown;
  link: string | null;
  /** GitLab's count of every item of a paged list (`X-Total`). */
  total: number | null;
}

async function send(
  account: ProviderAccount<TaskProvider>,
  url: string,
  init: { method: 'GET' | 'POST'; body?: string },
): Promise<ApiResponse> {
  const name = PROVIDER_NAMES[account.provider];
  let response: Response;
  let at = url;
  for (let redirects = 0; ; redirects++) {
    try {
      response = await fetch(at, {
        method: init.method,
        body: init.body,
        headers: {
          Authorization: authorizationOf(account.provider, account.token),
          Accept: 'application/json',
          'User-Agent': 'agent-console',
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        // A redirect elsewhere is not the API's response, and must not carry the token there.
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error instanceof Error ? error.name : 'error');
      throw new ProviderUnreachable(`Could not reach ${name} at ${at} (${cause})`);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location || redirects >= MAX_REDIRECTS || init.method !== 'GET') break;
    const next = new URL(location, at);
    if (next.origin !== new URL(at).origin) break;
    at = next.href;
  }
  // GitHub says a spent rate limit with a 403 (or 429) and `x-ratelimit-remaining: 0`: no refused token.
  if (response.status === 429 || (response.status === 403 && response.headers.get('x-ratelimit-remaining') === '0'))
    throw new ProviderRateLimited(`${name} is rate limiting requests with the stored token (HTTP ${response.status}): try again later`);
  if (response.status === 401 || response.status === 403)
    throw new ProviderRefusedToken(`${name} refused the stored token (HTTP ${response.status}): connect a new one under Settings → Git`);
  if (response.status === 404) throw new ProviderNotFound(`${name} has nothing at ${at} that the stored token may see (HTTP 404)`);
  if (!response.ok) throw new ProviderUnreachable(`${name} at ${at} responded with HTTP ${response.status}`);
  const body: unknown = await response.json().catch(() => undefined);
  if (body === undefined) throw new ProviderUnreachable(`${name} at ${at} did not respond like the ${name} API`);
  const total = Number.parseInt(response.headers.get('x-total') ?? '', 10);
  return { body, link: response.headers.get('link'), total: Number.isInteger(total) ? total : null };
}

/** GET `path` of the provider's REST API. */
export const getJson = (account: ProviderAccount<TaskProvider>, path: string): Promise<ApiResponse> =>
  send(account, `${restApiBase(account.provider, account.host)}${path}`, { method: 'GET' });

/** A GraphQL query at `url`; its `data`, or ProviderUnreachable with the API's first error. */
export async function graphql(account: ProviderAccount<TaskProvider>, url: string, query: string, variables: object): Promise<Json> {
  const { body } = await send(account, url, { method: 'POST', body: JSON.stringify({ query, variables }) });
  const errors = asList(asObject(body).errors);
  if (errors.length > 0) {
    const said = text(errors[0]?.message) ?? 'an error';
    throw new ProviderUnreachable(`${PROVIDER_NAMES[account.provider]}'s GraphQL API answered with ${said}`);
  }
  return asObject(asObject(body).data);
}

export type Json = Record<string, unknown>;
export const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
export const asList = (value: unknown): Json[] => (Array.isArray(value) ? value.map(asObject) : []);
export const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
export const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);
