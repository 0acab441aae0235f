import { ConfigError } from './config';
import type { SecretBox } from './secret-box';
import type { MetaStore } from './store/meta-store';

const CHECK_NAME = 'secrets_key_check';
const CHECK_TEXT = 'agent-console secrets key check';

/**
 * Refuses to run with a secrets key other than the one the stored secrets were sealed with.
 * Running anyway would show every secret as unset, and the next save would drop them for good.
 * The first start seals a known text; every later start must be able to open it.
 */
export async function checkSecretsKey(meta: MetaStore, secrets: SecretBox): Promise<void> {
  const sealed = await meta.getOrSet(CHECK_NAME, secrets.seal(CHECK_TEXT));
  let opened: string | undefined;
  try {
    opened = secrets.open(sealed);
  } catch {
    opened = undefined;
  }
  if (opened !== CHECK_TEXT) {
    throw new ConfigError(
      'The secrets key (SECRETS_KEY, or secrets.key in the data dir) is not the one the stored secrets were sealed with. Start with the original key.',
    );
  }
}
