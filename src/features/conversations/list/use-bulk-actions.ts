import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../../api/errors';
import type { AppConversation } from '../../../contract/conversations';
import { deleteConversationMutation, updateConversationMutation } from '../../../queries/conversations';
import type { BulkAction } from './conversations-view';

/**
 * The rows picked (`selected`, of `items` the ones in view: `selection`), the action asked for on
 * them (`asked`, until confirmed or cancelled), and running it once confirmed: one conversation at
 * a time, each failure named in one notice at the end.
 */
export function useBulkActions(items: readonly AppConversation[] | undefined) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const update = useMutation(updateConversationMutation(queryClient));
  const remove = useMutation(deleteConversationMutation(queryClient));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [asked, setAsked] = useState<BulkAction | null>(null);
  const [running, setRunning] = useState(false);
  const selection = (items ?? []).filter((item) => selected.has(item.id));

  const run = async (action: BulkAction) => {
    setRunning(true);
    const failures: string[] = [];
    for (const conversation of selection) {
      try {
        if (action === 'delete') await remove.mutateAsync(conversation.id);
        else await update.mutateAsync({ id: conversation.id, archived: action === 'archive' });
      } catch (error) {
        failures.push(`${conversation.title ?? conversation.id}: ${describeError(error)}`);
      }
    }
    setRunning(false);
    setAsked(null);
    setSelected(new Set());
    const done = selection.length - failures.length;
    const total = selection.length;
    const titles = {
      archive: {
        all: t`Archived ${plural(done, { one: '# conversation', other: '# conversations' })}`,
        some: t`Archived ${done} of ${total}`,
      },
      unarchive: {
        all: t`Unarchived ${plural(done, { one: '# conversation', other: '# conversations' })}`,
        some: t`Unarchived ${done} of ${total}`,
      },
      delete: {
        all: t`Deleted ${plural(done, { one: '# conversation', other: '# conversations' })}`,
        some: t`Deleted ${done} of ${total}`,
      },
    }[action];
    notifications.show(
      failures.length === 0
        ? { color: 'teal', title: titles.all, message: '' }
        : { color: 'red', title: titles.some, message: failures.join('\n') },
    );
  };

  return {
    selected,
    setSelected,
    selection,
    asked,
    ask: setAsked,
    cancel: () => setAsked(null),
    running,
    confirm: () => {
      if (asked) void run(asked);
    },
  };
}
