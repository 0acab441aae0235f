import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  return (
    <Dialog opened onClose={onClose} title={t`Export MCP servers`} size="xl">
      <Stack>
        <Text size="sm" c="dimmed">
          <Trans>
            The format Claude Desktop, Cursor and VS Code read. API keys are left out; environment variable values are included, as they are
            part of how a server is started.
          </Trans>
        </Text>
        <Code block aria-label={t`Exported JSON`} data-testid="mcp-export">
          {text}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button variant="default" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                {copied ? <Trans>Copied</Trans> : <Trans>Copy</Trans>}
              </Button>
            )}
          </CopyButton>
          <Button leftSection={<IconDownload size={16} />} onClick={() => download(text)}>
            <Trans>Download</Trans>
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
