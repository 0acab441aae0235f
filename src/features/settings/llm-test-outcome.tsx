import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Group, Loader, Text } from '@mantine/core';
import { IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import { describeError } from '../../api/errors';
import type { LlmTest } from './llm-test-panel';

/**
 * Each state of the outcome scrolls into view as it appears, below the button that asked for it:
 * the document's scroll padding keeps it clear of the save bar (src/app/layout.module.css).
 */
const scrollIntoView = (node: HTMLElement | null) => node?.scrollIntoView({ block: 'nearest' });

export default function LlmTestOutcome({ test }: { test: LlmTest }) {
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
