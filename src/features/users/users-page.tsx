import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyValue } from '../../components/copy-value';
import { Dialog } from '../../components/dialog';
import { PageHeader } from '../../components/page-header';
import { LoadedContent } from '../../components/query-content';
import { useUrlParams } from '../../components/use-url-params';
import type { Member } from '../../contract/team';
import { meQuery } from '../../queries/me';
import { deleteMemberMutation, membersQuery, renewInvitationMutation, updateMemberMutation } from '../../queries/team';
import { useCardLayout } from '../../components/use-card-layout';
import { InviteDialog } from './invite-dialog';
import { LimitsDialog } from './limits-dialog';
import { UsersView } from './users-view';

/** What the router loads: the page, and the catalog of its strings. */
export { UsersPage as Page };
export { loadUsersCatalog as catalog } from './catalog';

const PAGE_SIZE = 100;

type Pending = { kind: 'delete' | 'disable' | 'limits'; member: Member } | { kind: 'link'; member: Member; link: string } | null;

const nameOf = (member: Member) => member.name || member.email || member.user_id;

/** Owners and admins: the team, invitations, roles, disabling and deleting. The search is in the URL (`?q=`). */
export function UsersPage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [params, update] = useUrlParams<'q'>();
  const search = params.get('q') ?? '';
  const [debounced] = useDebouncedValue(search, 250);
  const me = useQuery(meQuery(queryClient));
  // Below 960 px the table's columns no longer fit beside the navigation.
  const layout = useCardLayout('59.99em');
  const members = useQuery(membersQuery(queryClient, 0, PAGE_SIZE, debounced));
  const [inviting, setInviting] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const change = useMutation(updateMemberMutation(queryClient));
  const remove = useMutation(deleteMemberMutation(queryClient));
  const renew = useMutation(renewInvitationMutation(queryClient));

  const failed = (what: string) => (error: unknown) => notifications.show({ color: 'red', title: what, message: describeError(error) });
  /** Whom the open confirmation or dialog is about. */
  const who = pending ? nameOf(pending.member) : '';

  return (
    <>
      <PageHeader
        title={t`Users`}
        description={t`Who signs in to this server, and what each may do.`}
        actions={
          me.data && (
            <Button leftSection={<IconUserPlus size={16} />} onClick={() => setInviting(true)}>
              <Trans>Invite people</Trans>
            </Button>
          )
        }
      />
      <Stack>
        <TextInput
          aria-label={t`Search users by email`}
          placeholder={t`Search by email`}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => update({ q: event.currentTarget.value || undefined })}
          maw={320}
        />
        <LoadedContent
          data={me.data && members.data ? { me: me.data, members: members.data } : undefined}
          error={me.error ?? members.error}
          onRetry={() => void Promise.all([me.refetch(), members.refetch()])}
          what={t`users`}
        >
          {({ me: caller, members: page }) => (
            <UsersView
              members={page.items}
              layout={layout}
              myId={caller.user_id}
              myRole={caller.role}
              onInvite={() => setInviting(true)}
              onRoleChange={(member, role) => {
                const name = nameOf(member);
                change.mutate({ userId: member.user_id, patch: { role } }, { onError: failed(t`Could not change ${name}’s role`) });
              }}
              onStatusChange={(member, status) => {
                const name = nameOf(member);
                if (status === 'disabled') setPending({ kind: 'disable', member });
                else change.mutate({ userId: member.user_id, patch: { status } }, { onError: failed(t`Could not enable ${name}`) });
              }}
              onNewLink={(member) =>
                renew.mutate(member.user_id, {
                  onSuccess: ({ link }) => link && setPending({ kind: 'link', member, link }),
                  onError: failed(t`Could not make a new invitation link`),
                })
              }
              onLimits={(member) => setPending({ kind: 'limits', member })}
              onDelete={(member) => setPending({ kind: 'delete', member })}
            />
          )}
        </LoadedContent>
      </Stack>
      {inviting && me.data && <InviteDialog myRole={me.data.role} onClose={() => setInviting(false)} />}
      {pending?.kind === 'disable' && (
        <ConfirmDialog
          title={t`Disable ${who}?`}
          confirmLabel={t`Disable`}
          pending={change.isPending}
          error={change.error}
          onClose={() => setPending(null)}
          onConfirm={() =>
            change.mutate({ userId: pending.member.user_id, patch: { status: 'disabled' } }, { onSuccess: () => setPending(null) })
          }
        >
          <Trans>
            They are signed out everywhere at once, their API keys stop working and are deleted, and their running sandboxes are paused.
            Their conversations stay. You can enable them again.
          </Trans>
        </ConfirmDialog>
      )}
      {pending?.kind === 'delete' && (
        <ConfirmDialog
          title={t`Delete ${who}?`}
          confirmLabel={t`Delete user`}
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setPending(null)}
          onConfirm={() => remove.mutate(pending.member.user_id, { onSuccess: () => setPending(null) })}
        >
          <Trans>
            Their settings, secrets, git tokens and API keys are deleted. Their conversations and sandboxes stay, paused, for admins to
            continue or delete. This cannot be undone.
          </Trans>
        </ConfirmDialog>
      )}
      {pending?.kind === 'limits' && <LimitsDialog member={pending.member} onClose={() => setPending(null)} />}
      {pending?.kind === 'link' && (
        <Dialog opened onClose={() => setPending(null)} title={t`New invitation link for ${who}`}>
          <Stack>
            <Text size="sm">
              <Trans>The old link no longer works. This one is shown only now, and works once within 7 days.</Trans>
            </Text>
            <CopyValue value={pending.link} label={t`invitation link`} maxWidth={360} />
            <Button onClick={() => setPending(null)}>
              <Trans>Done</Trans>
            </Button>
          </Stack>
        </Dialog>
      )}
    </>
  );
}
