import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, List, Loader, Group, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import { describeError } from '../../api/errors';
import type { McpTestResult } from '../../contract/mcp';

interface TestResultProps {
  pending: boolean;
  result: McpTestResult | undefined;
  error: unknown;
}

/** What a connection test found, scrolled into view as it changes (the Test button sits below a long form). */
export function TestResult(props: TestResultProps) {
  const ref = useRef<HTMLDivElement>(null);
  const { pending, result, error } = props;
  useEffect(() => {
    // jsdom has no scrollIntoView
    ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [pending, result, error]);
  if (!pending && !error && !result) return null;
  return (
    <div ref={ref}>
      <ResultContent {...props} />
    </div>
  );
}

/** The tools, or why it failed, or that it is still running. */
function ResultContent({ pending, result, error }: TestResultProps) {
  const { t } = useLingui();
  if (pending) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">
          <Trans>Connecting…</Trans>
        </Text>
      </Group>
    );
  }
  if (error) {
    return (
      <Alert color="red" variant="light" title={t`Could not run the test`} icon={<IconPlugConnectedX />} role="alert">
        {describeError(error)}
      </Alert>
    );
  }
  if (!result) return null;
  if (!result.ok) {
    return (
      <Alert color="red" variant="light" title={t`Connection failed`} icon={<IconPlugConnectedX />} role="alert">
        {/* A server's last lines of stderr, each on its own line. */}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {result.error}
        </Text>
      </Alert>
    );
  }
  const count = result.tools.length;
  return (
    <Alert
      color="teal"
      variant="light"
      title={t`Connected: ${plural(count, { one: '# tool', other: '# tools' })}`}
      icon={<IconCircleCheck />}
      role="status"
    >
      {result.tools.length > 0 && (
        <List size="sm" aria-label={t`Tools`}>
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
