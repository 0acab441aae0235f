import { Badge, Code, Table, Text } from '@mantine/core';
import type { McpConfigResponse } from '../../contract/mcp';
import { SettingsSection } from './settings-sections';

interface Row {
  kind: 'SSE' | 'Streamable HTTP' | 'stdio';
  name: string;
  details: string;
  keySet: boolean | undefined;
}

function rows(config: McpConfigResponse | null): Row[] {
  if (!config) return [];
  return [
    ...config.stdio_servers.map((s): Row => ({
      kind: 'stdio',
      name: s.name,
      details: [s.command, ...s.args].join(' '),
      keySet: undefined,
    })),
    ...config.sse_servers.map((s): Row => ({ kind: 'SSE', name: s.url, details: s.url, keySet: s.api_key_set ?? Boolean(s.api_key) })),
    ...config.shttp_servers.map((s): Row => ({
      kind: 'Streamable HTTP',
      name: s.url,
      details: `${s.url}${s.timeout ? ` (timeout ${s.timeout} s)` : ''}`,
      keySet: s.api_key_set ?? Boolean(s.api_key),
    })),
  ];
}

/** The configured MCP servers, read-only until the MCP editor lands. */
export function McpServersOverview({ config }: { config: McpConfigResponse | null }) {
  const servers = rows(config);
  return (
    <SettingsSection id="mcp" title="MCP servers" description="Tools the agent can call. Saving this page keeps them as they are.">
      {servers.length === 0 ? (
        <Text size="sm" c="dimmed">
          No MCP servers configured.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label="MCP servers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Type</Table.Th>
                <Table.Th>Name or URL</Table.Th>
                <Table.Th>Details</Table.Th>
                <Table.Th>API key</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {servers.map((server) => (
                <Table.Tr key={`${server.kind}:${server.name}`}>
                  <Table.Td>
                    <Badge variant="light">{server.kind}</Badge>
                  </Table.Td>
                  <Table.Td>{server.name}</Table.Td>
                  <Table.Td>
                    <Code>{server.details}</Code>
                  </Table.Td>
                  <Table.Td>{server.keySet === undefined ? '—' : server.keySet ? 'Set' : 'Not set'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </SettingsSection>
  );
}
