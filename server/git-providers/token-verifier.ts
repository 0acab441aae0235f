import { providerWords } from '../provider-words';
import { type Provider, PROVIDER_NAMES, PUBLIC_HOSTS, type TokenCheckOutcome } from '../../src/contract/secrets';

/** What a provider said about a token, in words (`reason`) unless it accepted it. */
export type TokenVerdict = { outcome: 'accepted' } | { outcome: Exclude<TokenCheckOutcome, 'accepted'>; reason: string };

/** Asks a provider whether a token is good. */
export type TokenVerifier = (provider: Provider, token: string, host: string | null) => Promise<TokenVerdict>;

const TIMEOUT_MS = 8000;

/** The base URL for a host: an http(s) URL as given, a bare domain over https. */
function baseUrl(host: string): string {
  return /^https?:\/\//i.test(host) ? host.replace(/\/+$/, '') : `https://${host}`;
}

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

/** `https://GitHub.com/` and `github.com` are the same public host. */
const bareHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/^https:\/\//, '')
    .replace(/\/+$/, '');

/** The base URL of a self-hosted provider's web address, or undefined for its public service. */
function customBase(provider: Provider, host: string | null): string | undefined {
  const publicHost = PUBLIC_HOSTS[provider];
  return host && (!publicHost || bareHost(host) !== publicHost) ? baseUrl(host) : undefined;
}

/** Where the REST API of GitHub, GitLab or Bitbucket is served, at its public address or at `host`. */
export function restApiBase(provider: 'github' | 'gitlab' | 'bitbucket', host: string | null): string {
  const custom = customBase(provider, host);
  if (provider === 'github') return custom ? `${custom}/api/v3` : 'https://api.github.com';
  if (provider === 'gitlab') return `${custom ?? 'https://gitlab.com'}/api/v4`;
  if (!custom) return 'https://api.bitbucket.org/2.0';
  // A URL is the API's own address; a bare domain serves its API at `api.` before it, as bitbucket.org does.
  return /^https?:\/\//i.test(host ?? '') ? `${custom}/2.0` : `https://api.${bareHost(host ?? '')}/2.0`;
}

/** Where the GraphQL API of GitHub or GitLab is served (GitHub Enterprise's and GitLab's beside their REST API's `/api`). */
export function graphqlUrl(provider: 'github' | 'gitlab', host: string | null): string {
  const custom = customBase(provider, host);
  if (provider === 'github') return custom ? `${custom}/api/graphql` : 'https://api.github.com/graphql';
  return `${custom ?? 'https://gitlab.com'}/api/graphql`;
}

/** The provider's web address (where its repositories, pull requests and issues have their pages). */
export function webBase(provider: 'github' | 'gitlab' | 'bitbucket', host: string | null): string {
  return customBase(provider, host) ?? `https://${PUBLIC_HOSTS[provider]}`;
}

/** How a request carries `token`: Bitbucket's app passwords come as "username:password" (Basic); every other token is a bearer token. */
export const authorizationOf = (provider: Provider, token: string) =>
  provider === 'bitbucket' && token.includes(':') ? basic(token) : `Bearer ${token}`;

/** The "who am I" request of each provider's API, at its public address or at `host`. */
export function identityRequest(
  provider: Provider,
  token: string,
  host: string | null,
): { url: string; authorization: string } | undefined {
  const custom = customBase(provider, host);
  switch (provider) {
    case 'github':
    case 'gitlab':
      return { url: `${restApiBase(provider, host)}/user`, authorization: `Bearer ${token}` };
    case 'bitbucket':
      return { url: `${restApiBase(provider, host)}/user`, authorization: authorizationOf(provider, token) };
    case 'azure_devops':
      return {
        url: custom ? `${custom}/_apis/connectionData` : 'https://app.vssps.visualstudio.com/_apis/profile/profiles/me?api-version=7.1',
        authorization: basic(`:${token}`),
      };
    case 'enterprise_sso':
      return undefined; // no API to ask: accepted as given
  }
}

const providerMessage = (response: Response): Promise<string> => response.json().then(providerWords, () => '');

/** Checks tokens against the provider's API (on save with VERIFY_GIT_TOKENS=1, and on Verify). */
export const verifyTokenOverHttp: TokenVerifier = async (provider, token, host) => {
  const name = PROVIDER_NAMES[provider];
  const request = identityRequest(provider, token, host);
  if (!request) return { outcome: 'uncheckable', reason: `${name} has no API to check a token with: it is used as given` };
  let response: Response;
  try {
    response = await fetch(request.url, {
      headers: { Authorization: request.authorization, Accept: 'application/json', 'User-Agent': 'agent-console' },
      // A redirect (to a login page, say) says nothing about the token, and must not carry it elsewhere.
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error instanceof Error ? error.name : 'error');
    return { outcome: 'unreachable', reason: `Could not reach ${name} at ${request.url} to check the token (${cause})` };
  }
  if (response.ok) {
    // A real API returns the identity as JSON; an HTML page that says 200 is not one.
    const identity = await response.json().catch(() => undefined);
    return identity && typeof identity === 'object'
      ? { outcome: 'accepted' }
      : { outcome: 'unreachable', reason: `${name} at ${request.url} did not respond like the ${name} API` };
  }
  if (response.status >= 300 && response.status < 400)
    return { outcome: 'unreachable', reason: `${name} at ${request.url} redirected instead of responding (is the host right?)` };
  const message = await providerMessage(response);
  return { outcome: 'refused', reason: `${name} rejected the token (HTTP ${response.status}${message ? `: ${message}` : ''})` };
};
