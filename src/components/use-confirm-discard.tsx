import { Trans, useLingui } from '@lingui/react/macro';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';

/**
 * Closing a form that has unsaved changes asks first. `requestClose` is for Cancel, Escape and
 * the ×; a successful save closes directly. `confirmation` is rendered next to the form.
 */
export function useConfirmDiscard(dirty: boolean, close: () => void): { requestClose: () => void; confirmation: ReactNode } {
  const { t } = useLingui();
  const [asking, setAsking] = useState(false);
  const confirmation = asking ? (
    <ConfirmDialog
      title={t`Discard unsaved changes?`}
      confirmLabel={t`Discard changes`}
      cancelLabel={t`Keep editing`}
      onConfirm={() => {
        setAsking(false);
        close();
      }}
      onClose={() => setAsking(false)}
    >
      <Trans>What you changed here is not saved yet.</Trans>
    </ConfirmDialog>
  ) : null;
  return { requestClose: () => (dirty ? setAsking(true) : close()), confirmation };
}
