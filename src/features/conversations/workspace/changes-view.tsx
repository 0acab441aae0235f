import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Box, Group, NavLink, Paper, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { LoadingSkeleton } from '../../../components/query-content';
import type { DiffLayout } from '../../../components/file-diff';
import type { GitChange, GitDiff } from '../../../contract/workspace';

const FileDiff = lazy(() => import('../../../components/file-diff'));

const STATUS: Record<GitChange['status'], { label: MessageDescriptor; color: string }> = {
  ADDED: { label: msg`Added`, color: 'teal' },
  UPDATED: { label: msg`Modified`, color: 'blue' },
  DELETED: { label: msg`Deleted`, color: 'red' },
  MOVED: { label: msg`Moved`, color: 'grape' },
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
  const { t, i18n } = useLingui();
  if (changes.length === 0) {
    return (
      <Text c="dimmed" size="sm" py="md">
        <Trans>No changes in the workspace yet.</Trans>
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      <Paper withBorder radius="md" p={4} component="nav" aria-label={t`Changed files`}>
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
                  {i18n._(STATUS[change.status].label)}
                </Badge>
              }
              aria-current={change.path === selected ? 'true' : undefined}
            />
          ))}
        </Box>
      </Paper>
      {/* eslint-disable-next-line lingui/no-unlocalized-strings -- CSS */}
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
                  { value: 'unified', label: t`Unified` },
                  { value: 'split', label: t`Split` },
                ]}
                aria-label={t`Diff layout`}
              />
            </Group>
            {diff ? (
              <Suspense fallback={<LoadingSkeleton what={t`the diff`} />}>
                <FileDiff path={selected} original={diff.original} modified={diff.modified} layout={layout} />
              </Suspense>
            ) : (
              diffState
            )}
          </>
        ) : (
          <Text c="dimmed" size="sm">
            <Trans>Choose a file to see what changed in it.</Trans>
          </Text>
        )}
      </Stack>
    </SimpleGrid>
  );
}
