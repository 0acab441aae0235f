import { Trans } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { describeError } from '../../api/errors';
import type { LlmTestResult } from '../../contract/llm-test';
import { withCatalog } from '../../i18n/catalogs';

/** The last LLM test: of which request (as JSON), and how it went. */
export interface LlmTest {
  request: string | null;
  pending: boolean;
  result: LlmTestResult | undefined;
  error: unknown;
}

/**
 * How the test went, loaded with the first test: most visits run none. Should its code not come
 * (the server was updated meanwhile), the outcome is said in a line.
 */
const Outcome = lazy(() =>
  withCatalog(import('./deferred/llm-test-outcome')).catch(() => ({
    default: ({ test }: { test: LlmTest }) => (
      <Text size="sm" role="status">
        {test.pending ? '…' : test.error ? describeError(test.error) : test.result?.ok ? test.result.reply : test.result?.error}
      </Text>
    ),
  })),
);

/**
 * "Test LLM" and what the test found. A result is shown only while the fields still hold what
 * was tested (`applies`): after an edit it no longer says anything about them.
 */
export function LlmTestPanel({
  test,
  applies,
  canTest,
  onTest,
}: {
  test: LlmTest;
  applies: boolean;
  canTest: boolean;
  onTest: () => void;
}) {
  return (
    <Stack gap="sm">
      <Group>
        <Button
          type="button"
          variant="default"
          leftSection={<IconPlugConnected size={16} />}
          onClick={onTest}
          loading={test.pending}
          disabled={!canTest}
        >
          <Trans>Test LLM</Trans>
        </Button>
        <Text size="xs" c="dimmed">
          <Trans>
            Sends one short message with the model, base URL and key above (the stored key when the field is empty); nothing is saved.
          </Trans>
        </Text>
      </Group>
      {/* Below the button: the button stays where it was clicked. */}
      {applies && (
        <Suspense fallback={null}>
          <Outcome test={test} />
        </Suspense>
      )}
    </Stack>
  );
}
