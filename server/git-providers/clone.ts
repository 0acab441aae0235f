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
   * Environment for git that sends the token as an HTTP header. Git reads this configuration
   * from the environment only: the token is never in the URL, in `.git/config` or in a command line.
   */
  env: Record<string, string>;
}

/** What the repository is called on disk: its last path segment. */
export const repositoryDirName = (repository: string) => repository.split('/').filter(Boolean).at(-1) ?? 'repository';

/**
 * Where to clone `repository` (`owner/repo`; Azure DevOps `org/project/repo`) from, and how to
 * authenticate; `undefined` when the provider has no public host and none was given.
 */
export function cloneSource(provider: Provider, host: string | null, repository: string, token: string | null): CloneSource | undefined {
  const base = host ? baseUrl(host) : PUBLIC_HOSTS[provider] && `https://${PUBLIC_HOSTS[provider]}`;
  if (!base) return undefined;
  let path = repository;
  if (provider === 'azure_devops') {
    const [org, project, repo] = repository.split('/');
    path = `${org}/${project}/_git/${repo}`;
  }
  const url = provider === 'azure_devops' ? `${base}/${path}` : `${base}/${path}.git`;
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0' };
  if (token) {
    const credentials = Buffer.from(`${BASIC_USER[provider]}:${token}`).toString('base64');
    Object.assign(env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${credentials}`,
    });
  }
  return { url, env };
}
