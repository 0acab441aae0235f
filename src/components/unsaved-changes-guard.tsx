import { t as translate } from '@lingui/core/macro';
import { useWindowEvent } from '@mantine/hooks';
import { type ComponentType, lazy, Suspense, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import type { DiscardDialogProps } from './discard-dialog';

/**
 * The question, loaded when first asked: a page with a form carries only the guard. Should its
 * code not come (the server was updated while this tab was open), the browser asks instead.
 */
const DiscardDialog = lazy((): Promise<{ default: ComponentType<DiscardDialogProps> }> =>
  import('./discard-dialog').catch(() => ({ default: DiscardInBrowser })),
);

function DiscardInBrowser({ onStay, onDiscard }: DiscardDialogProps) {
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    if (window.confirm(translate`You have changes that are not saved yet. Leaving this page discards them.`)) onDiscard();
    else onStay();
  }, [onStay, onDiscard]);
  return null;
}

/**
 * Asks before unsaved edits are lost: leaving the page inside the console gets a dialog, closing
 * or reloading the tab gets the browser's own prompt.
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);
  useWindowEvent('beforeunload', (event) => {
    if (when) event.preventDefault();
  });
  if (blocker.state !== 'blocked') return null;
  return (
    <Suspense fallback={null}>
      <DiscardDialog onStay={() => blocker.reset()} onDiscard={() => blocker.proceed()} />
    </Suspense>
  );
}
