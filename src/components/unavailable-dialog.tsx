import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactElement } from 'react';
import { Dialog } from './dialog';

interface UnavailableDialogProps {
  /** The title the dialog that could not be loaded would have had. */
  title: string;
  onClose: () => void;
}

/**
 * Stands in for a dialog whose code could not be loaded (the server was updated while this tab
 * was open, so the old chunk is gone): the page stays, and says what to do.
 */
export function UnavailableDialog({ title, onClose }: UnavailableDialogProps) {
  return (
    <Dialog opened onClose={onClose} title={title}>
      <Stack>
        <Text size="sm">This could not be loaded; the console was probably updated meanwhile. Reload the page to carry on.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => window.location.reload()}>Reload</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}

/** What a lazy dialog's import resolves to when its chunk cannot be fetched: `lazy(() => import(…).then(…, () => unavailable('Title')))`. */
export function unavailable(title: string): { default: (props: { onClose: () => void }) => ReactElement } {
  return { default: ({ onClose }) => <UnavailableDialog title={title} onClose={onClose} /> };
}
