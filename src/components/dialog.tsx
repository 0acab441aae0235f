import type { ModalProps } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';

/**
 * Mantine's Modal, loaded the first time a dialog opens. Most visits open none, and the modal's
 * focus trap, scroll lock, portal and transitions are a large part of a page's JavaScript.
 */
const Modal = lazy(() => import('./dialog-modal'));

export function Dialog(props: ModalProps) {
  const [needed, setNeeded] = useState(props.opened);
  if (props.opened && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  );
}
