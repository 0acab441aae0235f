import { Button, Skeleton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { describeError, isApiError } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { QueryContent } from '../../components/query-content';
import { conversationKeys, conversationQuery, deleteConversationMutation, updateConversationMutation } from '../../queries/conversations';
import { sandboxActionMutation } from '../../queries/sandboxes';
import { ConversationView } from './conversation-view';

const SANDBOX_ACTIONS = { RUNNING: 'pause', STARTING: 'pause', PAUSED: 'resume' } as const;

export function ConversationPage() {
  const { conversationId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const conversation = useQuery(conversationQuery(conversationId));
  const update = useMutation(updateConversationMutation(queryClient));
  const remove = useMutation(deleteConversationMutation(queryClient));
  const sandbox = useMutation({
    ...sandboxActionMutation(queryClient),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationKeys.detail(conversationId) }),
  });
  const [confirmDelete, setConfirmDelete] = useState(false);

  const failed = (what: string) => (error: unknown) =>
    notifications.show({ color: 'red', title: `Could not ${what}`, message: describeError(error) });

  if (isApiError(conversation.error) && conversation.error.status === 404 && !conversation.data) {
    return (
      <EmptyState title="Conversation not found" description="It may have been deleted.">
        <Button component={Link} to="/conversations" variant="default">
          All conversations
        </Button>
      </EmptyState>
    );
  }

  return (
    <>
      <QueryContent
        query={conversation}
        what="the conversation"
        skeleton={<Skeleton height={240} radius="md" aria-label="Loading the conversation" />}
      >
        {(c) => (
          <ConversationView
            conversation={c}
            renaming={update.isPending && update.variables.title !== undefined}
            onRename={(title) => update.mutate({ id: c.id, title }, { onError: failed('rename it') })}
            onArchive={(archived) =>
              update.mutate(
                { id: c.id, archived },
                {
                  onSuccess: () =>
                    notifications.show({ color: 'teal', title: archived ? 'Archived' : 'Unarchived', message: c.title ?? c.id }),
                  onError: failed(archived ? 'archive it' : 'unarchive it'),
                },
              )
            }
            sandboxAction={
              c.sandbox_status in SANDBOX_ACTIONS ? SANDBOX_ACTIONS[c.sandbox_status as keyof typeof SANDBOX_ACTIONS] : undefined
            }
            sandboxActionPending={sandbox.isPending}
            onSandboxAction={(action) => sandbox.mutate({ action, id: c.sandbox_id }, { onError: failed(`${action} its sandbox`) })}
            onDelete={() => setConfirmDelete(true)}
          />
        )}
      </QueryContent>
      {confirmDelete && conversation.data && (
        <ConfirmDialog
          title="Delete conversation?"
          confirmLabel="Delete"
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() =>
            remove.mutate(conversation.data.id, {
              onSuccess: () => {
                notifications.show({
                  color: 'teal',
                  title: 'Conversation deleted',
                  message: conversation.data.title ?? conversation.data.id,
                });
                void navigate('/conversations');
              },
            })
          }
        >
          <b>{conversation.data.title}</b> is deleted with its start tasks, and with its sandbox when it started one that no other
          conversation uses. This cannot be undone.
        </ConfirmDialog>
      )}
    </>
  );
}
