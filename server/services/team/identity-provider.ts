import { msg } from '@lingui/core/macro';
import * as oidc from 'openid-client';
import type { OidcConfig } from '../../config';
import type { Logger } from '../../logger';
import { Unauthenticated, Unavailable } from '../../domain-errors';
import type { TeamService } from './team-service';

/** What a sign-in keeps between sending the browser to the provider and its coming back (in a signed cookie). */
export interface PendingSignIn {
  verifier: string;
  state: string;
  nonce: string;
}

/**
 * Sign-in with an OpenID Connect provider: authorization code with PKCE, state and nonce. The
 * provider's configuration is discovered on first use (a provider that is down then is no reason
 * for the server not to start), and again after a failure.
 */
export class IdentityProvider {
  #configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly config: OidcConfig,
    private readonly team: TeamService,
    private readonly log: Logger,
  ) {}

  /** The provider's host, for the sign-in button. */
  get name(): string {
    return new URL(this.config.issuer).host;
  }

  #discovered(): Promise<oidc.Configuration> {
    const insecure = new URL(this.config.issuer).protocol === 'http:';
    this.#configuration ??= oidc
      .discovery(new URL(this.config.issuer), this.config.clientId, this.config.clientSecret, undefined, {
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        this.#configuration = undefined;
        this.log.warn({ err: error, issuer: this.config.issuer }, 'the identity provider could not be reached');
        throw new Unavailable(msg`The identity provider at ${this.config.issuer} cannot be reached; try again, or sign in with a password`);
      });
    return this.#configuration;
  }

  /** Where to send the browser, and what to keep until it comes back to `redirectUri`. */
  async start(redirectUri: string): Promise<{ url: string; pending: PendingSignIn }> {
    const configuration = await this.#discovered();
    const pending = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending };
  }

  /** The user the provider's answer (`callbackUrl`, as the browser came back) proves, made a member when allowed. */
  async finish(callbackUrl: URL, pending: PendingSignIn, address?: string): Promise<string> {
    const configuration = await this.#discovered();
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
      });
      claims = tokens.claims();
    } catch (error) {
      this.log.info({ err: error }, 'an identity provider sign-in was refused');
      await this.team.identitySignInRefused('The identity provider did not sign the user in', address);
      throw new Unauthenticated(msg`The identity provider did not sign you in; try again`);
    }
    const email = typeof claims?.email === 'string' ? claims.email : undefined;
    if (!email) {
      await this.team.identitySignInRefused('The identity provider did not say the email address', address);
      throw new Unauthenticated(msg`The identity provider did not say your email address (the "email" scope)`);
    }
    const name = typeof claims?.name === 'string' ? claims.name : null;
    return this.team.userForIdentity({ email, verified: claims?.email_verified === true, name }, this.config.allowSignups, address);
  }
}
