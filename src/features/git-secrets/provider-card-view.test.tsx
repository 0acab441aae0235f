import { screen, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import type { SaveProblem } from '../../components/form/apply-server-errors';
import type { TokenCheck } from '../../contract/secrets';
import { renderView } from '../../testing/render';
import { ProviderCardView } from './provider-card-view';
import { type ProviderFormValues, providerFormValues } from './provider-form';

type Callbacks = Record<'onSubmit' | 'onDisconnect' | 'onVerify', () => void>;

interface Options {
  problem?: SaveProblem | null;
  checkedAt?: string | null;
  result?: TokenCheck;
  error?: unknown;
}

function Harness({
  connectedHost,
  options: { problem = null, checkedAt, result, error = null },
  callbacks,
}: {
  connectedHost: string | null | undefined;
  options: Options;
  callbacks: Callbacks;
}) {
  const form = useForm<ProviderFormValues>({ defaultValues: providerFormValues(connectedHost) });
  return (
    <ProviderCardView
      provider="gitlab"
      connectedHost={connectedHost}
      checkedAt={checkedAt}
      verification={{ onVerify: callbacks.onVerify, pending: false, result, error }}
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

function setup(connectedHost: string | null | undefined, options: Options = {}) {
  const callbacks = { onSubmit: vi.fn(), onDisconnect: vi.fn(), onVerify: vi.fn() };
  const view = renderView(<Harness connectedHost={connectedHost} options={options} callbacks={callbacks} />);
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

  it('shows a token saved but never checked as such, with its host and one status badge, and disconnects it', async () => {
    const { user, card, onDisconnect, onVerify } = setup('gitlab.mycorp.com', { checkedAt: null });
    expect(within(card).getByTestId('gitlab-status')).toHaveTextContent('Saved, not verified');
    expect(within(card).getByTestId('gitlab-host')).toHaveTextContent('gitlab.mycorp.com');
    expect(within(card).getByLabelText('GitLab host', { selector: 'input' })).toHaveValue('gitlab.mycorp.com');
    expect(within(card).queryByTestId('token-status')).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    expect(onDisconnect).toHaveBeenCalled();
    expect(onVerify).not.toHaveBeenCalled();
  });

  it('says a verified token is verified, and when; the public host when none is stored', () => {
    const { card } = setup(null, { checkedAt: new Date(Date.now() - 5 * 60_000).toISOString() });
    expect(within(card).getByTestId('gitlab-status')).toHaveTextContent('Verified');
    expect(within(card).getByTestId('gitlab-host')).toHaveTextContent('gitlab.com · verified 5 minutes ago');
  });

  it('says only "Saved" when the server does not tell whether the token was verified', () => {
    const { card } = setup(null);
    expect(within(card).getByTestId('gitlab-status')).toHaveTextContent(/^Saved$/);
  });

  it("verifies on request and shows the provider's verdict, or why it could not ask", async () => {
    const refused: TokenCheck = {
      provider: 'gitlab',
      outcome: 'refused',
      detail: 'GitLab rejected the token (HTTP 401)',
      checked_at: null,
    };
    const { user, card, onVerify } = setup(null, { checkedAt: null, result: refused });
    await user.click(within(card).getByRole('button', { name: 'Verify' }));
    expect(onVerify).toHaveBeenCalled();
    expect(within(card).getByRole('status')).toHaveTextContent('GitLab rejected the token (HTTP 401)');
  });

  it('drops a verdict once the provider is disconnected', () => {
    const accepted: TokenCheck = { provider: 'gitlab', outcome: 'accepted', detail: 'GitLab accepted the token', checked_at: null };
    const { card } = setup(undefined, { result: accepted });
    expect(within(card).queryByRole('status')).not.toBeInTheDocument();
  });

  it('says why it could not verify', () => {
    const { card } = setup(null, { checkedAt: null, error: new Error('The server responded 404 Not Found') });
    expect(within(card).getByRole('alert')).toHaveTextContent('Could not verify');
  });

  it('offers no Verify before a token is saved', () => {
    const { card } = setup(undefined);
    expect(within(card).queryByRole('button', { name: 'Verify' })).not.toBeInTheDocument();
  });

  it('shows a save problem', () => {
    const { card } = setup(null, { problem: { message: 'Not saved: Cannot reach the server', unmatched: [] } });
    expect(within(card).getByRole('alert')).toHaveTextContent('Not saved: Cannot reach the server');
  });
});
