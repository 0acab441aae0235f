import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../testing/render';
import { DeferredTooltip } from './deferred-tooltip';

describe('DeferredTooltip', () => {
  it('shows the control at once, and its tooltip on hover once the tooltip has loaded', async () => {
    const { user } = renderView(
      <DeferredTooltip label="Test connection">
        <button aria-label="Test docs">T</button>
      </DeferredTooltip>,
    );
    expect(screen.getByRole('button', { name: 'Test docs' })).toBeInTheDocument();
    // Hovering until the loaded tooltip responds: the control is replaced once when it arrives.
    await waitFor(async () => {
      await user.hover(screen.getByRole('button', { name: 'Test docs' }));
      expect(screen.getByRole('tooltip')).toHaveTextContent('Test connection');
    });
  });
});
