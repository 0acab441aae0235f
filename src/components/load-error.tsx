import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { describeError } from '../api/errors';

/** A failed load, said plainly, with a way to try again. */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert color="red" variant="light" title={`Could not load ${what}`} icon={<IconAlertTriangle />} role="alert">
      <Group justify="space-between" align="center" wrap="nowrap">
        <Text size="sm">{describeError(error)}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}
