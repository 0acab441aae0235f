import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { Dialog } from './dialog';

export interface DiscardDialogProps {
  onStay: () => void;
  onDiscard: () => void;
}

/** Leaving a page with unsaved edits: stay (the focus is there), or go and lose them. */
export default function DiscardDialog({ onStay, onDiscard }: DiscardDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog opened onClose={onStay} title={t`Discard unsaved changes?`} centered>
      <Text size="sm">
        <Trans>You have changes that are not saved yet. Leaving this page discards them.</Trans>
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onStay} data-autofocus>
          <Trans>Stay on this page</Trans>
        </Button>
        <Button color="red" onClick={onDiscard}>
          <Trans>Discard changes</Trans>
        </Button>
      </Group>
    </Dialog>
  );
}
