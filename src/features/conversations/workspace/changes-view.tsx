import { Badge, Box, Group, NavLink, Paper, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { LoadingSkeleton } from '../../../components/query-content';
import type { DiffLayout } from '../../../components/file-diff';
import type { GitChange, GitDiff } from '../../../contract/workspace';

const FileDiff = lazy(() => import('../../../components/file-diff'));

const STATUS: Record<GitChange['status'], { label: string; color: string }> = {
  ADDED: { label: 'Added', color: 'teal' },
  UPDATED: { label: 'Modified', color: 'blue' },
  DELETED: { label: 'Deleted', color: 'red' },
  MOVED: { label: 'Moved', color: 'grape' },
};

export interface ChangesViewProps {
  changes: GitChange[];
  /** The file whose diff shows, if one is chosen. */
  selected: string | undefined;
  onSelect: (path: string) => void;
  layout: DiffLayout;
  onLayout: (layout: DiffLayout) => void;
  /** The selected file's texts once loaded. */
  diff: GitDiff | undefined;
  /** In place of the diff while it loads or when it failed. */
  diffState: ReactNode;
}

/** The workspace's changes since the work started: the files, and the chosen one's diff, unified or split. */
export function ChangesView({ changes, selected, onSelect, layout, onLayout, diff, diffState }: ChangesViewProps) {
  if (changes.length === 0) {
    return (
      <Text c="dimmed" size="sm" py="md">
        No changes in the workspace yet.
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      <Paper withBorder radius="md" p={4} component="nav" aria-label="Changed files">
        <Box mah={520} style={{ overflow: 'auto' }}>
          {changes.map((change) => (
            <NavLink
              component="button"
              key={change.path}
              active={change.path === selected}
              onClick={() => onSelect(change.path)}
              label={
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {change.path}
                </Text>
              }
              rightSection={
                <Badge size="xs" variant="light" color={STATUS[change.status].color}>
                  {STATUS[change.status].label}
                </Badge>
              }
              aria-current={change.path === selected ? 'true' : undefined}
            />
          ))}
        </Box>
      </Paper>
      <Stack style={{ gridColumn: 'span 2', minWidth: 0 }} gap="xs">
        {selected ? (
          <>
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" ff="monospace" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {selected}
              </Text>
              <SegmentedControl
                size="xs"
                value={layout}
                onChange={(value) => onLayout(value as DiffLayout)}
                data={[
                  { value: 'unified', label: 'Unified' },
                  { value: 'split', label: 'Split' },
                ]}
                aria-label="Diff layout"
              />
            </Group>
            {diff ? (
              <Suspense fallback={<LoadingSkeleton what="the diff" />}>
                <FileDiff path={selected} original={diff.original} modified={diff.modified} layout={layout} />
              </Suspense>
            ) : (
              diffState
            )}
          </>
        ) : (
          <Text c="dimmed" size="sm">
            Choose a file to see what changed in it.
          </Text>
        )}
      </Stack>
    </SimpleGrid>
  );
}
