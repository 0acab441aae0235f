import type { ModalProps } from '@mantine/core';
import { type ComponentType, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useReturnFocus } from './use-return-focus';

/**
 * Mantine's Modal, loaded the first time a dialog opens. Most visits open none, and the modal's
 * focus trap, scroll lock, portal and transitions are a large part of a page's JavaScript.
 * Should its code fail to load (the server was updated while this tab was open), the browser's
 * own dialog stands in, so the question is still asked and nothing on the page is lost.
 */
const Modal = lazy((): Promise<{ default: ComponentType<ModalProps> }> =>
  import('./overlays').then(
    ({ Modal }) => ({ default: Modal }),
    () => ({ default: NativeDialog }),
  ),
);

export function Dialog(props: ModalProps) {
  useReturnFocus(props.opened);
  const [needed, setNeeded] = useState(props.opened);
  if (props.opened && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  );
}

/** The browser's own dialog, for when a Mantine overlay's code could not be fetched. */
export function NativeDialog({
  opened,
  onClose,
  title,
  children,
  closeOnEscape = true,
}: Pick<ModalProps, 'opened' | 'onClose' | 'title' | 'children' | 'closeOnEscape'>) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (opened && !dialog?.open) dialog?.showModal();
    if (!opened && dialog?.open) dialog.close();
  }, [opened]);
  return (
    <dialog
      ref={ref}
      aria-label={typeof title === 'string' ? title : undefined}
      style={{
        maxWidth: 'min(40rem, 100vw - 2rem)',
        padding: 'var(--mantine-spacing-lg)',
        border: 'none',
        borderRadius: 'var(--mantine-radius-md)',
        boxShadow: 'var(--mantine-shadow-xl)',
        background: 'var(--mantine-color-body)',
        color: 'var(--mantine-color-text)',
      }}
      onCancel={(event) => {
        event.preventDefault();
        if (closeOnEscape) onClose();
      }}
    >
      {title ? <h2 style={{ marginTop: 0, fontSize: 'var(--mantine-font-size-lg)' }}>{title}</h2> : null}
      {children}
    </dialog>
  );
}
