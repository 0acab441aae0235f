import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconPlugConnected, IconPlugConnectedX } from '@tabler/icons-react';
import { describeError } from '../../api/errors';
import type { LlmTestResult } from '../../contract/llm-test';

/** The last LLM test: of which request (as JSON), and how it went. */
export interface LlmTest {
  request: string | null;
  pending: boolean;
  result: LlmTestResult | undefined;
  error: unknown;
}

/**
 * Each state of the outcome scrolls into view as it appears, below the button that asked for it:
 * the document's scroll padding keeps it clear of the save bar (src/app/layout.module.css).
 */
const scrollIntoView = (node: HTMLElement | null) => node?.scrollIntoView({ block: 'nearest' });

function Outcome({ test }: { test: LlmTest }) {
  const { t } = useLingui();
  if (test.pending) {
    return (
      <Group gap="xs" role="status" ref={scrollIntoView}>
        <Loader size="xs" />
        <Text size="sm">
          <Trans>Asking the model…</Trans>
        </Text>
      </Group>
    );
  }
  if (test.error) {
    return (
      <Alert color="red" variant="light" title={t`Could not run the test`} icon={<IconPlugConnectedX />} role="alert" ref={scrollIntoView}>
        {describeError(test.error)}
      </Alert>
    );
  }
  if (!test.result) return null;
  if (!test.result.ok) {
    return (
      <Alert color="red" variant="light" title={t`The LLM did not respond`} icon={<IconPlugConnectedX />} role="alert" ref={scrollIntoView}>
        <Text size="sm" style={{ wordBreak: 'break-word' }}>
          {test.result.error}
        </Text>
      </Alert>
    );
  }
  const { model } = test.result;
  return (
    <Alert color="teal" variant="light" title={t`${model} responded`} icon={<IconCircleCheck />} role="status" ref={scrollIntoView}>
      <Text size="sm" style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>
        {test.result.reply}
      </Text>
    </Alert>
  );
}

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
      {applies && <Outcome test={test} />}
    </Stack>
  );
}
