import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { useBlocker } from 'react-router';
import { Dialog } from './dialog';

/**
 * Asks before unsaved edits are lost: leaving the page inside the console gets a dialog, closing
 * or reloading the tab gets the browser's own prompt.
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  const { t } = useLingui();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);
  useWindowEvent('beforeunload', (event) => {
    if (when) event.preventDefault();
  });

  return (
    <Dialog opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={t`Discard unsaved changes?`} centered>
      <Text size="sm">
        <Trans>You have changes that are not saved yet. Leaving this page discards them.</Trans>
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          <Trans>Stay on this page</Trans>
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          <Trans>Discard changes</Trans>
        </Button>
      </Group>
    </Dialog>
  );
}
