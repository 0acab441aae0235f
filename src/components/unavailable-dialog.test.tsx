import { screen, within } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../testing/render';
import { unavailable } from './unavailable-dialog';

type SecretDialog = (props: { existing: string | null; onClose: () => void }) => React.ReactElement;

describe('unavailable', () => {
  it('stands in, titled as the dialog, for one whose code cannot be fetched', async () => {
    const chunkGone = Promise.reject<{ SecretDialog: SecretDialog }>(new Error('Failed to fetch dynamically imported module'));
    const LazySecretDialog = lazy((): Promise<{ default: SecretDialog }> =>
      chunkGone.then(
        (module) => ({ default: module.SecretDialog }),
        () => unavailable('Secret'),
      ),
    );
    const onClose = vi.fn();
    const { user } = renderView(
      <Suspense>
        <LazySecretDialog existing={null} onClose={onClose} />
      </Suspense>,
    );

    const dialog = await screen.findByRole('dialog', { name: 'Secret' });
    expect(within(dialog).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
  });
});
