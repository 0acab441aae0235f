import { useEffect } from 'react';

/**
 * Gives the focus back to what had it when `opened` became true, once it is false again or the
 * component is gone. Mantine's modals and drawers do this only when they were first mounted
 * closed; ours mount open (pages render them only while they are open, and dialogs load then).
 */
export function useReturnFocus(opened: boolean): void {
  useEffect(() => {
    if (!opened) return;
    const trigger = document.activeElement;
    return () => {
      // Unless the user has put the focus somewhere else meanwhile (outside any dialog).
      const now = document.activeElement;
      const lost = now === null || now === document.body || now.closest('[role="dialog"]') !== null;
      if (lost && trigger instanceof HTMLElement && trigger.isConnected) trigger.focus({ preventScroll: true });
    };
  }, [opened]);
}
