import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactElement } from 'react';
import { Dialog } from './dialog';

interface UnavailableDialogProps {
  /** The title the dialog that could not be loaded would have had. */
  title: string | MessageDescriptor;
  onClose: () => void;
}

/**
 * Stands in for a dialog whose code could not be loaded (the server was updated while this tab
 * was open, so the old chunk is gone): the page stays, and says what to do.
 */
export function UnavailableDialog({ title, onClose }: UnavailableDialogProps) {
  const { i18n } = useLingui();
  return (
    <Dialog opened onClose={onClose} title={typeof title === 'string' ? title : i18n._(title)}>
      <Stack>
        <Text size="sm">
          <Trans>This could not be loaded; the console was probably updated meanwhile. Reload the page to carry on.</Trans>
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Close</Trans>
          </Button>
          <Button onClick={() => window.location.reload()}>
            <Trans>Reload</Trans>
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}

/** What a lazy dialog's import resolves to when its chunk cannot be fetched: `lazy(() => import(…).then(…, () => unavailable('Title')))`. */
export function unavailable(title: string | MessageDescriptor): { default: (props: { onClose: () => void }) => ReactElement } {
  return { default: ({ onClose }) => <UnavailableDialog title={title} onClose={onClose} /> };
}
