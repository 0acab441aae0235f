import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';

/** What went wrong with the action at hand, announced to screen readers as it appears. */
export function ErrorAlert({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" variant="light" role="alert">
      {children}
    </Alert>
  );
}
