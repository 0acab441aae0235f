import { useLingui } from '@lingui/react/macro';
import { TextInput } from '@mantine/core';
import classes from '../settings-sections.module.css';

/**
 * The account's email as the server says it, read-only: it is the address the user signs in
 * with (from their invitation or their identity provider), which a settings save does not change.
 */
export function AccountEmail({ email, verified }: { email: string | null; verified: boolean | null }) {
  const { t } = useLingui();
  return (
    <div className={classes.grid}>
      <TextInput
        label={t`Email`}
        value={email ?? ''}
        readOnly
        placeholder={t`None on this account`}
        description={t`The address you sign in with, from your invitation or your identity provider; it is not changed here (the agent's commits use Git user email)`}
      />
      <TextInput
        label={t`Email verified`}
        value={verified === null ? '' : verified ? t`Yes` : t`No`}
        readOnly
        description={t`Whether an identity provider said this address is yours when you signed in with it`}
      />
    </div>
  );
}
export { loadCatalog as catalog } from './catalog';
