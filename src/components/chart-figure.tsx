import { Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

/**
 * A chart with its title, named by it, and its figures in a sentence (what a screen reader reads
 * for it, and a reader who wants the numbers without hovering).
 */
export function ChartFigure({ title, summary, children }: { title: string; summary: string; children: ReactNode }) {
  const summaryId = useId();
  return (
    <Stack gap="xs" role="figure" aria-label={title} aria-describedby={summaryId}>
      <Title order={3} size="h5">
        {title}
      </Title>
      <Text id={summaryId} size="sm" c="dimmed">
        {summary}
      </Text>
      {children}
    </Stack>
  );
}
