import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../api/errors';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { notifyStarted } from './notices';
import { sandboxSpecsQuery } from '../../queries/sandbox-specs';
import { startSandboxMutation } from '../../queries/sandboxes';

/** Start a sandbox from a spec of the user's choice (the default spec first). */
export function StartSandboxDialog({ onClose, initialSpec }: { onClose: () => void; initialSpec?: string }) {
  const specs = useQuery(sandboxSpecsQuery());
  const start = useMutation(startSandboxMutation(useQueryClient()));
  const [specId, setSpecId] = useState(initialSpec ?? '');
  const options = specs.data?.items.map((spec) => ({ value: spec.id, label: spec.id })) ?? [];
  const chosen = specId || options[0]?.value;

  const submit = () =>
    start.mutate(chosen, {
      onSuccess: (sandbox) => {
        notifyStarted(sandbox);
        onClose();
      },
    });

  return (
    <Dialog opened onClose={onClose} title="Start sandbox">
      <Stack>
        <NativeSelect
          label="Spec"
          data-autofocus
          description="The template it starts from; the first is the default"
          data={options}
          value={chosen ?? ''}
          onChange={(event) => setSpecId(event.currentTarget.value)}
          disabled={!specs.data}
          error={specs.isError ? describeError(specs.error) : undefined}
        />
        {start.error ? <ErrorAlert>Not started: {describeError(start.error)}</ErrorAlert> : null}
        <Text size="xs" c="dimmed">
          If too many sandboxes run already, the oldest running one is paused.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={start.isPending} disabled={!chosen}>
            Start
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
