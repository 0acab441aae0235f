import { screen, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import type { SaveProblem } from '../../components/form/apply-server-errors';
import { renderView } from '../../testing/render';
import { ProviderCardView } from './provider-card-view';
import { type ProviderFormValues, providerFormValues } from './provider-form';

type Callbacks = Record<'onSubmit' | 'onDisconnect', () => void>;

function Harness({
  connectedHost,
  problem,
  callbacks,
}: {
  connectedHost: string | null | undefined;
  problem: SaveProblem | null;
  callbacks: Callbacks;
}) {
  const form = useForm<ProviderFormValues>({ defaultValues: providerFormValues(connectedHost) });
  return (
    <ProviderCardView
      provider="gitlab"
      connectedHost={connectedHost}
      form={form}
      problem={problem}
      onSubmit={(event) => {
        event.preventDefault();
        callbacks.onSubmit();
      }}
      onDisconnect={callbacks.onDisconnect}
    />
  );
}

function setup(connectedHost: string | null | undefined, problem: SaveProblem | null = null) {
  const callbacks = { onSubmit: vi.fn(), onDisconnect: vi.fn() };
  const view = renderView(<Harness connectedHost={connectedHost} problem={problem} callbacks={callbacks} />);
  return { ...view, ...callbacks, card: screen.getByRole('region', { name: 'GitLab' }) };
}

describe('ProviderCardView', () => {
  it('offers to connect a provider that is not connected, once a token is typed', async () => {
    const { user, card, onSubmit, onDisconnect } = setup(undefined);
    expect(within(card).getByTestId('gitlab-status')).toHaveTextContent('Not connected');
    expect(within(card).queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument();
    const connect = within(card).getByRole('button', { name: 'Connect' });
    expect(connect).toBeDisabled();
    await user.type(within(card).getByLabelText('GitLab token', { selector: 'input' }), 'glpat-x');
    await user.click(connect);
    expect(onSubmit).toHaveBeenCalled();
    expect(onDisconnect).not.toHaveBeenCalled();
  });

  it('shows a connected provider with its host, and disconnects it', async () => {
    const { user, card, onDisconnect } = setup('gitlab.mycorp.com');
    expect(within(card).getByTestId('gitlab-status')).toHaveTextContent('Connected · gitlab.mycorp.com');
    expect(within(card).getByLabelText('GitLab host', { selector: 'input' })).toHaveValue('gitlab.mycorp.com');
    expect(within(card).getByTestId('token-status')).toHaveTextContent('Set');
    await user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    expect(onDisconnect).toHaveBeenCalled();
  });

  it('shows a save problem', () => {
    const { card } = setup(null, { message: 'Not saved: Cannot reach the server', unmatched: [] });
    expect(within(card).getByRole('alert')).toHaveTextContent('Not saved: Cannot reach the server');
  });
});
