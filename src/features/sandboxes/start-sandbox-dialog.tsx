import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t, i18n } = useLingui();
  const specs = useQuery(sandboxSpecsQuery());
  const start = useMutation(startSandboxMutation(useQueryClient()));
  const [specId, setSpecId] = useState(initialSpec ?? '');
  const options = specs.data?.items.map((spec) => ({ value: spec.id, label: spec.id })) ?? [];
  const chosen = specId || options[0]?.value;

  const submit = () =>
    start.mutate(chosen, {
      onSuccess: (sandbox) => {
        notifyStarted(i18n, sandbox);
        onClose();
      },
    });

  return (
    <Dialog opened onClose={onClose} title={t`Start sandbox`}>
      <Stack>
        <NativeSelect
          label={t`Spec`}
          data-autofocus
          description={t`The template it starts from; the first is the default`}
          data={options}
          value={chosen ?? ''}
          onChange={(event) => setSpecId(event.currentTarget.value)}
          disabled={!specs.data}
          error={specs.isError ? describeError(specs.error) : undefined}
        />
        {start.error ? <NotStarted reason={describeError(start.error)} /> : null}
        <Text size="xs" c="dimmed">
          <Trans>If too many sandboxes run already, the oldest running one is paused.</Trans>
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={submit} loading={start.isPending} disabled={!chosen}>
            <Trans>Start</Trans>
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}

function NotStarted({ reason }: { reason: string }) {
  return (
    <ErrorAlert>
      <Trans>Not started: {reason}</Trans>
    </ErrorAlert>
  );
}
