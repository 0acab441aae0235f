import { Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A list with nothing in it yet: what that means, and the way to add the first item. */
export function EmptyState({ title, description, children }: { title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <Paper withBorder p="xl" radius="md" ta="center">
      <Stack align="center" gap="xs">
        <Text fw={600}>{title}</Text>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
