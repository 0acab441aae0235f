import { Button, Group, Stack, Text } from '@mantine/core';
import { Dialog } from '../../components/dialog';

/** Stands in for a form whose code could not be loaded (the server was updated while this tab was open). */
export function UnavailableDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog opened onClose={onClose} title="New conversation">
      <Stack>
        <Text size="sm">
          The form could not be loaded; the console was probably updated meanwhile. Reload the page to start a conversation.
        </Text>
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
