import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';
import { contractResolver } from '../../components/form/contract-resolver';
import { KEEP_SECRET, type SecretDraft, secretUpdate } from '../../components/form/secret-field';
import { hostRequiredProblem, type Provider, PROVIDER_NAMES, providerTokenSchema } from '../../contract/secrets';

/** One provider card's form: a write-only token and the host. */
export interface ProviderFormValues {
  token: SecretDraft;
  host: string;
}

export const toEntry = (values: ProviderFormValues) => ({ token: secretUpdate(values.token), host: values.host.trim() || null });

/**
 * The contract's checks for one provider entry (a host where one is needed), plus: connecting
 * needs a token. Its messages are in `i18n`'s language (the contract's own are in English).
 */
export function resolverFor(provider: Provider, connected: boolean, i18n: I18n) {
  const name = PROVIDER_NAMES[provider];
  const schema = providerTokenSchema.check(
    z.refine((entry) => connected || Boolean(entry.token), { message: i18n._(msg`Paste a token to connect`), path: ['token'] }),
    z.refine((entry) => !hostRequiredProblem(provider, entry.host), {
      message: i18n._(msg`${name} needs the host of your server`),
      path: ['host'],
    }),
  );
  return contractResolver(toEntry, schema, { isField: (path) => path === 'token' || path === 'host' });
}

/** What a card's form starts from: an empty token (keep the stored one) and the stored host. */
export const providerFormValues = (connectedHost: string | null | undefined): ProviderFormValues => ({
  token: KEEP_SECRET,
  host: connectedHost ?? '',
});
