import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Dialog } from '../../components/dialog';
import type { McpConfigResponse } from '../../contract/mcp';
import { toMcpServersJson } from './import-export';

function download(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: 'mcp-servers.json' });
  link.click();
  URL.revokeObjectURL(url);
}

/** The servers in the common `mcpServers` format, to copy or download; API keys are left out. */
export function ExportDialog({ config, onClose }: { config: McpConfigResponse | null; onClose: () => void }) {
  const text = useMemo(() => toMcpServersJson(config), [config]);
  return (
    <Dialog opened onClose={onClose} title="Export MCP servers" size="xl">
      <Stack>
        <Text size="sm" c="dimmed">
          The format Claude Desktop, Cursor and VS Code read. API keys are left out; environment variable values are included, as they are
          part of how a server is started.
        </Text>
        <Code block aria-label="Exported JSON" data-testid="mcp-export">
          {text}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button variant="default" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button leftSection={<IconDownload size={16} />} onClick={() => download(text)}>
            Download
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
