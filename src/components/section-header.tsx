import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The heading of a section of a page (level 2), its one-line description and its actions. */
export function SectionHeader({
  id,
  title,
  description,
  actions,
  size = 'h3',
}: {
  id?: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** Smaller inside a card, whose border already sets the section apart. */
  size?: 'h3' | 'h4';
}) {
  return (
    <Group justify="space-between" mb="sm" align="flex-end">
      <div>
        <Title order={2} size={size} id={id}>
          {title}
        </Title>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
      </div>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}
