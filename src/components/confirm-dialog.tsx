import { useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { describeError } from '../api/errors';
import { ErrorAlert } from './error-alert';
import { Dialog } from './dialog';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  /** The destructive action, e.g. "Delete". */
  confirmLabel: string;
  /** The safe way out, "Cancel" unless said otherwise. */
  cancelLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
  pending?: boolean;
  /** Why the last attempt failed, shown in the dialog so it can be tried again. */
  error?: unknown;
}

/** Asks before something destructive; Cancel has the focus, so Enter never destroys by accident. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onClose,
  pending = false,
  error,
}: ConfirmDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog opened onClose={onClose} title={title} centered>
      <Stack>
        <Text size="sm" component="div">
          {children}
        </Text>
        {error ? <ErrorAlert>{describeError(error)}</ErrorAlert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {cancelLabel ?? t`Cancel`}
          </Button>
          <Button color="red" onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
