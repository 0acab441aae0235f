import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors';
import { startTask } from '../../../testing/conversations';
import { renderView } from '../../../testing/render';
import { AgentControls, type AgentControlsProps } from './agent-controls';

function setup(props: Partial<AgentControlsProps> = {}) {
  const callbacks = {
    onSend: vi.fn<AgentControlsProps['onSend']>(() => Promise.resolve()),
    onPause: vi.fn(),
    onRun: vi.fn(),
    onConfirm: vi.fn(),
    onResumeSandbox: vi.fn(),
  };
  const view = renderView(
    <AgentControls
      executionStatus="idle"
      sandboxStatus="RUNNING"
      waiting={[]}
      sending={false}
      sendError={null}
      pending={null}
      requestError={null}
      resumingSandbox={false}
      {...callbacks}
      {...props}
    />,
  );
  return { ...view, ...callbacks };
}

const composer = () => screen.getByRole('textbox', { name: 'Message to the agent' });

describe('AgentControls', () => {
  it('sends with Ctrl+Enter or Cmd+Enter, and empties the composer once sent', async () => {
    const { user, onSend } = setup();
    await user.type(composer(), 'List the files');
    await user.keyboard('{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onSend).toHaveBeenCalledWith({ text: 'List the files', images: [] });
    expect(composer()).toHaveValue('');
    await user.type(composer(), 'And the tests');
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    expect(onSend).toHaveBeenLastCalledWith({ text: 'And the tests', images: [] });
  });

  it('attaches images (chosen, pasted or dropped), shows them, sends them with the text, and lets one be removed', async () => {
    const { user, onSend } = setup();
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
    await user.upload(input, [png('one.png'), png('two.png')]);
    const attached = await screen.findByRole('list', { name: 'Attached images' });
    expect(
      within(attached)
        .getAllByRole('img')
        .map((image) => image.getAttribute('alt')),
    ).toEqual(['one.png', 'two.png']);
    await user.click(screen.getByRole('button', { name: 'Remove one.png' }));
    expect(within(attached).getAllByRole('img')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith({ text: '', images: ['data:image/png;base64,iVBORw=='] });
    await vi.waitFor(() => expect(screen.queryByRole('list', { name: 'Attached images' })).toBeNull());
  });

  it('keeps what was written while a message was on its way', async () => {
    let sent!: () => void;
    const onSend = vi.fn(() => new Promise<void>((resolve) => (sent = resolve)));
    const { user } = setup({ onSend });
    await user.type(composer(), 'First');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onSend).toHaveBeenCalledWith({ text: 'First', images: [] });
    await user.clear(composer());
    await user.type(composer(), 'Second, typed meanwhile');
    sent();
    await vi.waitFor(() => expect(composer()).toHaveValue('Second, typed meanwhile'));
  });

  it('refuses what is no image, and images too large for one message', async () => {
    const { user, onSend } = setup();
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    // Pasted: a text file is no image.
    fireEvent.paste(composer(), { clipboardData: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await screen.findByText('Only PNG, JPEG, GIF and WebP images can be attached.')).toBeInTheDocument();
    const big = new File([new Uint8Array(2.5 * 1024 * 1024)], 'big.png', { type: 'image/png' });
    await user.upload(input, big);
    expect(await screen.findByText(/a message may carry 3\.0 MiB of them\. Remove one to send\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('keeps the text when sending fails, and shows why', async () => {
    const error = new ApiError('The sandbox is paused: resume it first', 'http', 409);
    const onSend = vi.fn(() => Promise.reject(error));
    const { user } = setup({ onSend, sendError: error });
    await user.type(composer(), 'Go on');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith({ text: 'Go on', images: [] });
    expect(composer()).toHaveValue('Go on');
    expect(screen.getByRole('alert')).toHaveTextContent('The sandbox is paused: resume it first');
  });

  it('offers Stop while the agent works and Continue while it is paused', async () => {
    const running = setup({ executionStatus: 'running' });
    await running.user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(running.onPause).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    running.unmount();

    const paused = setup({ executionStatus: 'paused', requestError: new ApiError('Conversation already running', 'http', 409) });
    await paused.user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(paused.onRun).toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('Conversation already running');
    paused.unmount();

    setup({ executionStatus: 'finished' });
    expect(screen.queryByRole('button', { name: /Stop|Continue/ })).toBeNull();
  });

  it('says a stuck agent needs a message, and offers the composer for it', async () => {
    const { user, onSend } = setup({ executionStatus: 'stuck' });
    expect(screen.getByText('The agent is stuck')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Stop|Continue/ })).toBeNull();
    await user.type(composer(), 'Try another way');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onSend).toHaveBeenCalledWith({ text: 'Try another way', images: [] });
  });

  it('approves, or rejects with an optional reason, what waits for approval', async () => {
    const { user, onConfirm } = setup({ executionStatus: 'waiting_for_confirmation', waiting: [{ text: '$ rm -rf build', risk: 'HIGH' }] });
    const region = screen.getByRole('region', { name: 'Waiting for approval' });
    expect(region).toHaveTextContent('The agent waits for your approval to run this action:');
    expect(region).toHaveTextContent('$ rm -rf build');
    expect(within(region).getByText('High risk')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onConfirm).toHaveBeenLastCalledWith({ accept: true });

    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await user.click(screen.getByRole('button', { name: 'Confirm rejection' }));
    expect(onConfirm).toHaveBeenLastCalledWith({ accept: false, reason: undefined });
    await user.type(screen.getByRole('textbox', { name: /Why not/ }), 'Keep the build');
    await user.click(screen.getByRole('button', { name: 'Confirm rejection' }));
    expect(onConfirm).toHaveBeenLastCalledWith({ accept: false, reason: 'Keep the build' });
  });

  it('offers to resume a paused sandbox instead of the composer, and says when the sandbox is gone', async () => {
    const paused = setup({ sandboxStatus: 'PAUSED', executionStatus: null });
    expect(screen.queryByRole('textbox', { name: 'Message to the agent' })).toBeNull();
    await paused.user.click(screen.getByRole('button', { name: 'Resume sandbox' }));
    expect(paused.onResumeSandbox).toHaveBeenCalled();
    paused.unmount();

    setup({ sandboxStatus: 'MISSING', executionStatus: null });
    expect(screen.getByText(/Its sandbox is gone/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Message to the agent' })).toBeNull();
    // Without a way to go on (OpenHands), none is offered.
    expect(screen.queryByRole('button', { name: 'Continue in a new sandbox' })).toBeNull();
  });

  it('offers to go on in a new sandbox when its own is gone or failed, follows that start, and says why one failed', async () => {
    const continuation = { onContinue: vi.fn(), onDismiss: vi.fn(), task: null, asking: false, error: null };
    const gone = setup({ sandboxStatus: 'ERROR', executionStatus: null, continuation });
    expect(screen.getByText(/did not carry over|does not carry over/)).toBeInTheDocument();
    await gone.user.click(screen.getByRole('button', { name: 'Continue in a new sandbox' }));
    expect(continuation.onContinue).toHaveBeenCalled();
    gone.unmount();

    const task = startTask('PREPARING_REPOSITORY', { request: { title: 'Fix the parser' } });
    const working = setup({ sandboxStatus: 'MISSING', executionStatus: null, continuation: { ...continuation, task } });
    expect(screen.getByRole('group', { name: 'Start of Fix the parser' })).toHaveTextContent('Preparing');
    working.unmount();

    const failed = setup({
      sandboxStatus: 'MISSING',
      executionStatus: null,
      continuation: { ...continuation, task: { ...task, status: 'ERROR', detail: 'Could not clone octo/hello' } },
    });
    expect(screen.getByText('Could not clone octo/hello')).toBeInTheDocument();
    await failed.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(continuation.onContinue).toHaveBeenCalledTimes(2);
    failed.unmount();

    setup({
      sandboxStatus: 'MISSING',
      executionStatus: null,
      continuation: { ...continuation, error: new ApiError('Conversation x is starting already', 'http', 409) },
    });
    expect(screen.getByText('Conversation x is starting already')).toBeInTheDocument();
  });

  it('offers someone else’s conversation only Stop: no composer, approval or Continue, and says whose it is and why', async () => {
    const { user, onPause } = setup({
      executionStatus: 'waiting_for_confirmation',
      waiting: [{ text: 'rm -rf build', risk: 'HIGH' }],
      ownerName: 'Alice',
    });
    expect(screen.getByRole('region', { name: 'Waiting for approval' })).toHaveTextContent('The agent waits for Alice’s approval');
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Message to the agent' })).not.toBeInTheDocument();
    expect(screen.getByText(/Only Alice can write to its agent/)).toHaveTextContent(/it runs with their secrets/);
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onPause).toHaveBeenCalled();
  });

  it('does not offer to continue someone else’s paused agent', () => {
    setup({ executionStatus: 'paused', ownerName: 'Alice' });
    expect(screen.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
  });
});
