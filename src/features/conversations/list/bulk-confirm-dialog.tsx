import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { AppConversation } from '../../../contract/conversations';
import type { BulkAction } from './conversations-view';

const VERB: Record<BulkAction, string> = { archive: 'Archive', unarchive: 'Unarchive', delete: 'Delete' };

const SAYS: Record<BulkAction, string> = {
  delete:
    'Each is deleted with its start tasks, and with its sandbox when it started one no other conversation uses. This cannot be undone.',
  archive: 'Archived conversations are hidden from the list until "Archived" is on.',
  unarchive: 'They come back to the list.',
};

export interface BulkConfirmDialogProps {
  action: BulkAction;
  selection: readonly AppConversation[];
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/** Asks before archiving, unarchiving or deleting the selected conversations, naming the first ten. */
export function BulkConfirmDialog({ action, selection, pending, onClose, onConfirm }: BulkConfirmDialogProps) {
  return (
    <ConfirmDialog
      title={`${VERB[action]} ${selection.length} ${selection.length === 1 ? 'conversation' : 'conversations'}?`}
      confirmLabel={`${VERB[action]} ${selection.length}`}
      pending={pending}
      onClose={onClose}
      onConfirm={onConfirm}
    >
      {SAYS[action]}
      <ul>
        {selection.slice(0, 10).map((conversation) => (
          <li key={conversation.id}>{conversation.title ?? conversation.id}</li>
        ))}
        {selection.length > 10 && <li>and {selection.length - 10} more</li>}
      </ul>
    </ConfirmDialog>
  );
}
