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

function size(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function EntryIcon({ type }: { type: DirectoryListing['entries'][number]['type'] }) {
  if (type === 'directory') return <IconFolder size={16} aria-label="Folder" />;
  // A link is not followed: where it leads may be outside the workspace.
  if (type === 'link') return <IconLink size={16} aria-label="Link (not followed)" />;
  return <IconFile size={16} aria-label="File" />;
}

/** The workspace's files: a directory at a time, a text file shown, any file or the whole workspace downloaded. */
export function FilesView(props: FilesViewProps) {
  const { dir, listing, file } = props;
  const segments = dir ? dir.split('/') : [];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Box component="nav" aria-label="Folder">
          <Breadcrumbs>
            <Anchor component="button" type="button" size="sm" onClick={() => props.onOpenDir('')}>
              workspace
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
          Download workspace (.tar.gz)
        </Button>
      </Group>
      <Paper withBorder radius="md">
        <Box mah={420} style={{ overflow: 'auto' }}>
          <Table aria-label="Files" highlightOnHover verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th w={100}>Size</Table.Th>
                <Table.Th w={140}>Modified</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {listing.entries.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={3}>
                    <Text size="sm" c="dimmed">
                      This folder is empty.
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
                        {size(entry.size)}
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
          Only the first {listing.entries.length} entries are listed.
        </Text>
      )}
      {file && (
        <Paper withBorder radius="md" p="sm" component="section" aria-label={`File ${file}`}>
          <Group justify="space-between" mb="xs" wrap="nowrap">
            <Text size="sm" ff="monospace" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {file}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Button variant="default" size="xs" leftSection={<IconDownload size={14} />} onClick={() => props.onDownloadFile(file)}>
                Download
              </Button>
              <Button variant="subtle" size="xs" onClick={() => props.onOpenFile(undefined)}>
                Close
              </Button>
            </Group>
          </Group>
          {props.content?.kind === 'text' ? (
            <Box mah={480} style={{ overflow: 'auto' }}>
              <Code block>{props.content.text}</Code>
            </Box>
          ) : props.content ? (
            <Text size="sm" c="dimmed">
              {props.content.kind === 'binary' ? 'Not a text file' : 'Too large to show here'} ({size(props.content.size)}): download it to
              open it.
            </Text>
          ) : (
            props.contentState
          )}
        </Paper>
      )}
    </Stack>
  );
}
