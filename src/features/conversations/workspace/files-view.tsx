import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Box, Breadcrumbs, Button, Code, Group, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconDownload, IconFile, IconFolder, IconLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { RelativeTime } from '../../../components/relative-time';
import type { DirectoryListing } from '../../../contract/workspace';
import type { WorkspaceFileContent } from '../../../queries/workspace';

export interface FilesViewProps {
  /** The directory shown, relative to the workspace (`''`: the workspace itself). */
  dir: string;
  listing: DirectoryListing;
  onOpenDir: (dir: string) => void;
  /** The file shown below the listing, if one is open. */
  file: string | undefined;
  onOpenFile: (file: string | undefined) => void;
  content: WorkspaceFileContent | undefined;
  /** In place of the file's content while it loads or when it failed. */
  contentState: ReactNode;
  onDownloadFile: (file: string) => void;
  onDownloadArchive: () => void;
  archiving: boolean;
}

const join = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

function size(bytes: number | null, i18n: I18n): string {
  if (bytes === null) return '';
  if (bytes < 1024) return i18n._(msg`${bytes} B`);
  const tenths = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  if (bytes < 1024 * 1024) {
    const amount = i18n.number(bytes / 1024, tenths);
    return i18n._(msg`${amount} KB`);
  }
  const amount = i18n.number(bytes / 1024 / 1024, tenths);
  return i18n._(msg`${amount} MB`);
}

function EntryIcon({ type }: { type: DirectoryListing['entries'][number]['type'] }) {
  const { t } = useLingui();
  if (type === 'directory') return <IconFolder size={16} aria-label={t`Folder`} />;
  // A link is not followed: where it leads may be outside the workspace.
  if (type === 'link') return <IconLink size={16} aria-label={t`Link (not followed)`} />;
  return <IconFile size={16} aria-label={t`File`} />;
}

/** Why a file's content is not shown, and what to do instead. */
function NotShown({ kind, size }: { kind: 'binary' | 'too-large'; size: string }) {
  return (
    <Text size="sm" c="dimmed">
      {kind === 'binary' ? (
        <Trans>Not a text file ({size}): download it to open it.</Trans>
      ) : (
        <Trans>Too large to show here ({size}): download it to open it.</Trans>
      )}
    </Text>
  );
}

/** The workspace's files: a directory at a time, a text file shown, any file or the whole workspace downloaded. */
export function FilesView(props: FilesViewProps) {
  const { t, i18n } = useLingui();
  const { dir, listing, file } = props;
  const listed = listing.entries.length;
  const segments = dir ? dir.split('/') : [];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Box component="nav" aria-label={t`Folder`}>
          <Breadcrumbs>
            <Anchor component="button" type="button" size="sm" onClick={() => props.onOpenDir('')}>
              <Trans>workspace</Trans>
            </Anchor>
            {segments.map((segment, i) => (
              <Anchor
                key={i}
                component="button"
                type="button"
                size="sm"
                onClick={() => props.onOpenDir(segments.slice(0, i + 1).join('/'))}
              >
                {segment}
              </Anchor>
            ))}
          </Breadcrumbs>
        </Box>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconDownload size={14} />}
          loading={props.archiving}
          onClick={props.onDownloadArchive}
        >
          <Trans>Download workspace (.tar.gz)</Trans>
        </Button>
      </Group>
      <Paper withBorder radius="md">
        <Box mah={420} style={{ overflow: 'auto' }}>
          <Table aria-label={t`Files`} highlightOnHover verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Name</Trans>
                </Table.Th>
                <Table.Th w={100}>
                  <Trans>Size</Trans>
                </Table.Th>
                <Table.Th w={140}>
                  <Trans context="when a file was last changed">Modified</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {listing.entries.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={3}>
                    <Text size="sm" c="dimmed">
                      <Trans>This folder is empty.</Trans>
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {listing.entries.map((entry) => {
                const path = join(dir, entry.name);
                const isDir = entry.type === 'directory';
                return (
                  <Table.Tr key={entry.name} aria-selected={path === file}>
                    <Table.Td>
                      <UnstyledButton
                        onClick={() => (isDir ? props.onOpenDir(path) : entry.type === 'file' && props.onOpenFile(path))}
                        disabled={entry.type === 'other' || entry.type === 'link'}
                      >
                        <Group gap={6} wrap="nowrap">
                          <EntryIcon type={entry.type} />
                          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                            {entry.name}
                            {entry.type === 'link' && entry.link_target && (
                              <Text span size="sm" c="dimmed" ff="monospace">
                                {` → ${entry.link_target}`}
                              </Text>
                            )}
                          </Text>
                        </Group>
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {size(entry.size, i18n)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <RelativeTime iso={entry.modified_at} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Box>
      </Paper>
      {listing.truncated && (
        <Text size="xs" c="dimmed">
          <Trans>Only the first {listed} entries are listed.</Trans>
        </Text>
      )}
      {file && (
        <Paper withBorder radius="md" p="sm" component="section" aria-label={t`File ${file}`}>
          <Group justify="space-between" mb="xs" wrap="nowrap">
            <Text size="sm" ff="monospace" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {file}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Button variant="default" size="xs" leftSection={<IconDownload size={14} />} onClick={() => props.onDownloadFile(file)}>
                <Trans>Download</Trans>
              </Button>
              <Button variant="subtle" size="xs" onClick={() => props.onOpenFile(undefined)}>
                <Trans>Close</Trans>
              </Button>
            </Group>
          </Group>
          {props.content?.kind === 'text' ? (
            <Box mah={480} style={{ overflow: 'auto' }}>
              <Code block>{props.content.text}</Code>
            </Box>
          ) : props.content ? (
            <NotShown kind={props.content.kind} size={size(props.content.size, i18n)} />
          ) : (
            props.contentState
          )}
        </Paper>
      )}
    </Stack>
  );
}
