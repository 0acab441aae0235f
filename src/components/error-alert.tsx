import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** What went wrong with the action at hand, announced to screen readers as it appears. */
export function ErrorAlert({ title, onClose, children }: { title?: string; onClose?: () => void; children: ReactNode }) {
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      title={title}
      icon={title ? <IconAlertTriangle /> : undefined}
      withCloseButton={onClose !== undefined}
      onClose={onClose}
    >
      {children}
    </Alert>
  );
}
