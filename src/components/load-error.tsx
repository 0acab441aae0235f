import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { describeError } from '../api/errors';

/** A failed load, said plainly, with a way to try again. */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  const { t } = useLingui();
  return (
    <Alert color="red" variant="light" title={t`Could not load ${what}`} icon={<IconAlertTriangle />} role="alert">
      <Group justify="space-between" align="center" wrap="nowrap">
        <Text size="sm">{describeError(error)}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          <Trans>Try again</Trans>
        </Button>
      </Group>
    </Alert>
  );
}
