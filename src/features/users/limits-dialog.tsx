import { Alert, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, isApiError } from '../../api/errors';
import { Dialog } from '../../components/dialog';
import type { Member } from '../../contract/team';
import { updateMemberMutation } from '../../queries/team';

type Limit = 'max_running_sandboxes' | 'max_sandboxes';

/** How many sandboxes of one user may run, and exist; empty means only the server's limits apply. */
export function LimitsDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation(updateMemberMutation(queryClient));
  const [values, setValues] = useState<Record<Limit, number | ''>>({
    max_running_sandboxes: member.max_running_sandboxes ?? '',
    max_sandboxes: member.max_sandboxes ?? '',
  });
  const fieldError = (field: Limit) =>
    isApiError(save.error) ? save.error.validation.find((entry) => entry.loc.includes(field))?.msg : undefined;
  const general = save.error && !fieldError('max_running_sandboxes') && !fieldError('max_sandboxes');
  const name = member.name || member.email || member.user_id;
  const input = (field: Limit, label: string) => (
    <NumberInput
      label={label}
      description="Empty: only the server’s limit"
      min={0}
      allowDecimal={false}
      value={values[field]}
      onChange={(value) => setValues((current) => ({ ...current, [field]: typeof value === 'number' ? value : '' }))}
      error={fieldError(field)}
    />
  );
  return (
    <Dialog opened onClose={onClose} title={`Sandbox limits for ${name}`}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const patch = {
            max_running_sandboxes: values.max_running_sandboxes === '' ? null : values.max_running_sandboxes,
            max_sandboxes: values.max_sandboxes === '' ? null : values.max_sandboxes,
          };
          save.mutate({ userId: member.user_id, patch }, { onSuccess: onClose });
        }}
      >
        <Stack>
          <Text size="sm">A start over a limit is refused with a message that names it; nothing of theirs is paused or deleted.</Text>
          {input('max_running_sandboxes', 'Running at once')}
          {input('max_sandboxes', 'In all')}
          {general && <Alert color="red">{describeError(save.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save limits
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
