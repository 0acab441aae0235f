import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { AppConversation } from '../../../contract/conversations';
import type { BulkAction } from './conversations-view';

export interface BulkConfirmDialogProps {
  action: BulkAction;
  selection: readonly AppConversation[];
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/** Asks before archiving, unarchiving or deleting the selected conversations, naming the first ten. */
export function BulkConfirmDialog({ action, selection, pending, onClose, onConfirm }: BulkConfirmDialogProps) {
  const { t } = useLingui();
  const count = selection.length;
  const more = count - 10;
  const asked = {
    archive: {
      title: t`Archive ${plural(count, { one: '# conversation', other: '# conversations' })}?`,
      confirm: t`Archive ${count}`,
      says: t`Archived conversations are hidden from the list until "Archived" is on.`,
    },
    unarchive: {
      title: t`Unarchive ${plural(count, { one: '# conversation', other: '# conversations' })}?`,
      confirm: t`Unarchive ${count}`,
      says: t`They come back to the list.`,
    },
    delete: {
      title: t`Delete ${plural(count, { one: '# conversation', other: '# conversations' })}?`,
      confirm: t`Delete ${count}`,
      says: t`Each is deleted with its start tasks, and with its sandbox when it started one no other conversation uses. This cannot be undone.`,
    },
  }[action];
  return (
    <ConfirmDialog title={asked.title} confirmLabel={asked.confirm} pending={pending} onClose={onClose} onConfirm={onConfirm}>
      {asked.says}
      <ul>
        {selection.slice(0, 10).map((conversation) => (
          <li key={conversation.id}>{conversation.title ?? conversation.id}</li>
        ))}
        {more > 0 && (
          <li>
            <Trans>and {more} more</Trans>
          </li>
        )}
      </ul>
    </ConfirmDialog>
  );
}
