import * as z from 'zod/mini';
import { contractResolver } from '../../components/form/contract-resolver';
import { KEEP_SECRET, type SecretDraft, secretUpdate } from '../../components/form/secret-field';
import { hostRequiredProblem, type Provider, providerTokenSchema } from '../../contract/secrets';

/** One provider card's form: a write-only token and the host. */
export interface ProviderFormValues {
  token: SecretDraft;
  host: string;
}

export const toEntry = (values: ProviderFormValues) => ({ token: secretUpdate(values.token), host: values.host.trim() || null });

/** The contract's checks for one provider entry (a host where one is needed), plus: connecting needs a token. */
export function resolverFor(provider: Provider, connected: boolean) {
  const schema = providerTokenSchema.check(
    z.refine((entry) => connected || Boolean(entry.token), { message: 'Paste a token to connect', path: ['token'] }),
    z.refine((entry) => !hostRequiredProblem(provider, entry.host), {
      message: hostRequiredProblem(provider, null),
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
