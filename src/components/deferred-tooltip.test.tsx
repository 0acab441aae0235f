import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../testing/render';
import { DeferredTooltip, whenNotInUse } from './deferred-tooltip';

describe('DeferredTooltip', () => {
  it('shows the control at once, and its tooltip on hover once the tooltip has loaded', async () => {
    const { user } = renderView(
      <DeferredTooltip label="Test connection">
        <button aria-label="Test docs">T</button>
      </DeferredTooltip>,
    );
    expect(screen.getByRole('button', { name: 'Test docs' })).toBeInTheDocument();
    // Pointing at it until the loaded tooltip responds: the control is wrapped once it has arrived
    // and the pointer has left.
    await waitFor(async () => {
      await user.unhover(screen.getByRole('button', { name: 'Test docs' }));
      await user.hover(screen.getByRole('button', { name: 'Test docs' }));
      expect(screen.getByRole('tooltip')).toHaveTextContent('Test connection');
    });
  });
});

describe('whenNotInUse', () => {
  it('waits while the focus is in the control, and goes on once it has left', async () => {
    const slot = document.createElement('span');
    const control = document.createElement('button');
    const elsewhere = document.createElement('button');
    slot.append(control);
    document.body.append(slot, elsewhere);
    try {
      control.focus();
      let ready = 0;
      whenNotInUse(slot, () => (ready += 1));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(ready).toBe(0);
      elsewhere.focus();
      await waitFor(() => expect(ready).toBe(1));
    } finally {
      slot.remove();
      elsewhere.remove();
    }
  });

  it('waits while a dialog is open, which may give the focus back to the control', async () => {
    const slot = document.createElement('span');
    const dialog = document.createElement('div');
    dialog.setAttribute('aria-modal', 'true');
    const inside = document.createElement('button');
    dialog.append(inside);
    document.body.append(slot, dialog);
    try {
      inside.focus();
      let ready = 0;
      whenNotInUse(slot, () => (ready += 1));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(ready).toBe(0);
      dialog.remove();
      inside.blur();
      document.body.dispatchEvent(new FocusEvent('focusin'));
      await waitFor(() => expect(ready).toBe(1));
    } finally {
      slot.remove();
      dialog.remove();
    }
  });

  it('goes on at once when the control is not in use', () => {
    const slot = document.createElement('span');
    document.body.append(slot);
    let ready = 0;
    whenNotInUse(slot, () => (ready += 1));
    expect(ready).toBe(1);
    slot.remove();
  });
});
