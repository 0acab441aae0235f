import { useLingui } from '@lingui/react/macro';
import { Alert, Group, Loader, Text } from '@mantine/core';
import { IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { describeError } from '../../../api/errors';

/** What the service tested said: that it took the credential, or why not. */
export type CredentialVerdict = { ok: true; title: string; body: ReactNode } | { ok: false; title: string; reason: string };

/**
 * Each state of the outcome scrolls into view as it appears, below the button that asked for it:
 * the document's scroll padding keeps it clear of the save bar (src/app/layout.module.css).
 */
const scrollIntoView = (node: HTMLElement | null) => node?.scrollIntoView({ block: 'nearest' });

/** How a test of a credential (an LLM's, a search API's) went: waiting, could not run, refused, or taken. */
export function CredentialTestOutcome({
  pending,
  waiting,
  error,
  verdict,
}: {
  pending: boolean;
  /** What is said while the test runs ("Asking the model…"). */
  waiting: string;
  /** Why the test could not run at all. */
  error: unknown;
  verdict: CredentialVerdict | undefined;
}) {
  const { t } = useLingui();
  if (pending) {
    return (
      <Group gap="xs" role="status" ref={scrollIntoView}>
        <Loader size="xs" />
        <Text size="sm">{waiting}</Text>
      </Group>
    );
  }
  if (error) {
    return (
      <Alert color="red" variant="light" title={t`Could not run the test`} icon={<IconPlugConnectedX />} role="alert" ref={scrollIntoView}>
        {describeError(error)}
      </Alert>
    );
  }
  if (!verdict) return null;
  if (!verdict.ok) {
    return (
      <Alert color="red" variant="light" title={verdict.title} icon={<IconPlugConnectedX />} role="alert" ref={scrollIntoView}>
        <Text size="sm" style={{ wordBreak: 'break-word' }}>
          {verdict.reason}
        </Text>
      </Alert>
    );
  }
  return (
    <Alert color="teal" variant="light" title={verdict.title} icon={<IconCircleCheck />} role="status" ref={scrollIntoView}>
      {verdict.body}
    </Alert>
  );
}
