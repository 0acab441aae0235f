import { type Provider, PUBLIC_HOSTS } from '../../src/contract/secrets';

/** The base URL for a host: an http(s) URL as given, a bare domain over https. */
const baseUrl = (host: string) => (/^https?:\/\//i.test(host) ? host.replace(/\/+$/, '') : `https://${host}`);

/** The user name each provider expects beside a token in HTTP Basic auth. */
const BASIC_USER: Record<Provider, string> = {
  github: 'x-access-token',
  gitlab: 'oauth2',
  bitbucket: 'x-token-auth',
  azure_devops: '',
  enterprise_sso: 'x-access-token',
};

export interface CloneSource {
  url: string;
  /**
   * Environment for git that answers the host's request for credentials with the token. Git reads
   * this configuration from the environment only: the token is never in the URL, in `.git/config`
   * or in a command line.
   */
  env: Record<string, string>;
}

/** What the repository is called on disk: its last path segment. */
export const repositoryDirName = (repository: string) => repository.split('/').filter(Boolean).at(-1) ?? 'repository';

/**
 * Where to clone `repository` (`owner/repo`; Azure DevOps `org/project/repo`) from, and how to
 * authenticate; `undefined` when the provider has no public host and none was given.
 * `urlFromSandbox` says how the sandbox reaches the host (a self-hosted one on this machine's loopback).
 */
export function cloneSource(
  provider: Provider,
  host: string | null,
  repository: string,
  token: string | null,
  urlFromSandbox: (url: string) => string = (url) => url,
): CloneSource | undefined {
  const configured = host ? baseUrl(host) : PUBLIC_HOSTS[provider] && `https://${PUBLIC_HOSTS[provider]}`;
  if (!configured) return undefined;
  const base = urlFromSandbox(configured);
  let path = repository;
  if (provider === 'azure_devops') {
    const [org, project, repo] = repository.split('/');
    path = `${org}/${project}/_git/${repo}`;
  }
  const url = provider === 'azure_devops' ? `${base}/${path}` : `${base}/${path}.git`;
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0' };
  if (token) {
    Object.assign(env, {
      // A credential helper for this host only: git asks helpers per host, so a redirect to another
      // host gets no token (an HTTP header would go there too). The empty value first drops
      // helpers configured elsewhere (one that stores what it is given, say).
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: `credential.${base}.helper`,
      GIT_CONFIG_VALUE_0: '',
      GIT_CONFIG_KEY_1: `credential.${base}.helper`,
      GIT_CONFIG_VALUE_1: CREDENTIAL_HELPER,
      AGENT_CONSOLE_GIT_USERNAME: BASIC_USER[provider] || 'token',
      AGENT_CONSOLE_GIT_TOKEN: token,
    });
  }
  return { url, env };
}

/** Answers git's `get` with the username and token from the environment (never on a command line). */
const CREDENTIAL_HELPER =
  '!f() { test "$1" = get || exit 0; echo "username=$AGENT_CONSOLE_GIT_USERNAME"; echo "password=$AGENT_CONSOLE_GIT_TOKEN"; }; f';
