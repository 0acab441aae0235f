import { Alert, List, Loader, Group, Text } from '@mantine/core';
import { IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import { describeError } from '../../api/errors';
import type { McpTestResult } from '../../contract/mcp';

/** What a connection test found: the tools, or why it failed, or that it is still running. */
export function TestResult({ pending, result, error }: { pending: boolean; result: McpTestResult | undefined; error: unknown }) {
  if (pending) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">Connecting…</Text>
      </Group>
    );
  }
  if (error) {
    return (
      <Alert color="red" variant="light" title="Could not run the test" icon={<IconPlugConnectedX />} role="alert">
        {describeError(error)}
      </Alert>
    );
  }
  if (!result) return null;
  if (!result.ok) {
    return (
      <Alert color="red" variant="light" title="Connection failed" icon={<IconPlugConnectedX />} role="alert">
        <Text size="sm" style={{ wordBreak: 'break-word' }}>
          {result.error}
        </Text>
      </Alert>
    );
  }
  return (
    <Alert
      color="teal"
      variant="light"
      title={`Connected: ${result.tools.length} ${result.tools.length === 1 ? 'tool' : 'tools'}`}
      icon={<IconCircleCheck />}
      role="status"
    >
      {result.tools.length > 0 && (
        <List size="sm" aria-label="Tools">
          {result.tools.map((tool) => (
            <List.Item key={tool.name}>
              <Text span fw={600} size="sm">
                {tool.name}
              </Text>
              {tool.description && (
                <Text span size="sm" c="dimmed">
                  {' '}
                  — {tool.description}
                </Text>
              )}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
