import { Alert, Button, Group, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, isApiError } from '../../api/errors';
import { CopyValue } from '../../components/copy-value';
import { Dialog } from '../../components/dialog';
import type { InvitationResult } from '../../contract/team';
import type { Role } from '../../contract/roles';
import { inviteMutation } from '../../queries/team';

/** The addresses typed, however they are separated (commas, spaces, lines). */
export const addressesIn = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/**
 * Invites people by email. Each gets a link to set their password, shown here once to hand over
 * (the server sends no mail); it works for 7 days. What was typed stays when the server refuses it.
 */
export function InviteDialog({ myRole, onClose }: { myRole: Role; onClose: () => void }) {
  const queryClient = useQueryClient();
  const invite = useMutation(inviteMutation(queryClient));
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [result, setResult] = useState<InvitationResult | null>(null);
  const error = invite.error;
  const fieldError = isApiError(error) && error.validation.length > 0 ? error.validation.map((entry) => entry.msg).join('; ') : undefined;

  return (
    <Dialog opened onClose={onClose} title="Invite people" size="lg">
      {result ? (
        <Stack>
          {result.successful.length > 0 && (
            <Text size="sm">Give each person their link: it is shown only now, and works once within 7 days.</Text>
          )}
          {result.successful.map((invitation) => (
            <Group key={invitation.id} justify="space-between" wrap="nowrap">
              <Text size="sm">{invitation.email}</Text>
              {invitation.link && <CopyValue value={invitation.link} label={`invitation link for ${invitation.email}`} maxWidth={320} />}
            </Group>
          ))}
          {result.failed.map((failure) => (
            <Alert key={failure.email} color="red" title={failure.email}>
              {failure.error}
            </Alert>
          ))}
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            invite.mutate({ emails: addressesIn(emails), role }, { onSuccess: setResult });
          }}
        >
          <Stack>
            <Textarea
              label="Email addresses"
              description="One or more, separated by commas or new lines"
              value={emails}
              onChange={(e) => setEmails(e.currentTarget.value)}
              error={fieldError}
              autosize
              minRows={2}
              data-autofocus
            />
            <NativeSelect
              label="Role"
              value={role}
              onChange={(event) => setRole(event.currentTarget.value as Role)}
              data={[
                { value: 'member', label: 'Member: their own settings, conversations and sandboxes' },
                { value: 'admin', label: 'Admin: also users, and everyone’s conversations and sandboxes' },
                ...(myRole === 'owner' ? [{ value: 'owner', label: 'Owner: everything' }] : []),
              ]}
            />
            {error && !fieldError && <Alert color="red">{describeError(error)}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={invite.isPending}>
                Invite
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Dialog>
  );
}
