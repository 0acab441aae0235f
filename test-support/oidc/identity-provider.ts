import type { AddressInfo } from 'node:net';
import http from 'node:http';
import Provider from 'oidc-provider';

/*
 * A real OpenID Connect provider (oidc-provider) on loopback, for the tests of sign-in with an
 * identity provider. Its development login form takes any password; the login names the
 * account, whose email (and whether it is verified) comes from `accounts`.
 */

export interface TestAccount {
  email: string;
  verified?: boolean;
  name?: string;
}

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** Listens on `port` (0: any free one) for a client that comes back to `redirectUri`. */
export async function startIdentityProvider(
  redirectUri: string,
  accounts: Record<string, TestAccount>,
  port = 0,
): Promise<TestIdentityProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const clientId = 'agent-console';
  const clientSecret = 'agent-console-test-secret';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The claims of the scopes asked for go into the ID token too, where the server reads them.
    conformIdTokenClaims: false,
    cookies: { keys: ['test-cookie-key'] },
    findAccount: (_ctx, login) => {
      const account = accounts[login];
      if (!account) return undefined;
      return {
        accountId: login,
        claims: () => ({ sub: login, email: account.email, email_verified: account.verified ?? true, name: account.name }),
      };
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
