import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors';
import type { StartTask } from '../../../contract/conversations';
import { appConversation, startTask } from '../../../testing/conversations';
import { renderView } from '../../../testing/render';
import { ConversationsView, type ConversationsViewProps } from './conversations-view';

const conversation = (id: string, title: string) =>
  appConversation({ id, title, selected_repository: 'octo/hello', selected_branch: 'main', git_provider: 'github', trigger: 'gui' });

const task = (id: string, status: StartTask['status'], detail: string | null = null) =>
  startTask(status, { id, detail, request: { title: `Task ${id}` } });

function setup(props: Partial<ConversationsViewProps> = {}) {
  const callbacks = {
    onTitleInput: vi.fn(),
    onTitleLeave: vi.fn(),
    onFiltersChange: vi.fn(),
    onRetry: vi.fn(),
    onLoadMore: vi.fn(),
    onRetryTask: vi.fn(),
    onDismissTask: vi.fn(),
    onSelect: vi.fn(),
    onBulk: vi.fn(),
    onNew: vi.fn(),
  };
  const view = renderView(
    <MemoryRouter>
      <ConversationsView
        filters={{ title: '', from: '', to: '', sort: 'CREATED_AT_DESC', archived: false, owner: '', sandbox: '' }}
        titleInput=""
        items={[]}
        error={null}
        count={0}
        hasMore={false}
        loadingMore={false}
        tasks={[]}
        retryingTask={undefined}
        selected={new Set()}
        {...callbacks}
        {...props}
      />
    </MemoryRouter>,
  );
  return { ...view, ...callbacks };
}

describe('ConversationsView', () => {
  it('shows a skeleton while the first page loads, and the error with a retry when it fails', async () => {
    const { rerender } = setup({ items: undefined });
    expect(screen.getByLabelText('Loading conversations')).toBeInTheDocument();
    rerender(<div />);
    const { user, onRetry } = setup({ items: undefined, error: new ApiError('Cannot reach the server', 'network', 0) });
    expect(screen.getByText(/Cannot reach the server/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Try again|Retry/ }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('offers to start the first conversation when there is none', async () => {
    const { user, onNew } = setup();
    expect(screen.getByText('No conversations yet')).toBeInTheDocument();
    for (const button of screen.getAllByRole('button', { name: 'New conversation' })) await user.click(button);
    expect(onNew).toHaveBeenCalledTimes(2);
  });

  it('says, when there is none and no LLM is set up, where to choose one or that the demo model needs none', () => {
    setup({ noModel: true });
    const hint = screen.getByText(/No LLM is set up yet/);
    expect(hint).toHaveTextContent('or start with the demo model (demo/scripted), a scripted session that needs no LLM and no key.');
    expect(within(hint).getByRole('link', { name: 'Settings › LLM' })).toHaveAttribute('href', '/settings#llm');
  });

  it('says nothing of the model when one is set up', () => {
    setup({ noModel: false });
    expect(screen.getByText('No conversations yet')).toBeInTheDocument();
    expect(screen.queryByText(/No LLM is set up yet/)).not.toBeInTheDocument();
  });

  it('lists conversations with their repository and statuses, counts them, and loads more', async () => {
    const { user, onLoadMore, onSelect } = setup({
      items: [conversation('a', 'Fix it'), conversation('b', 'Ship it')],
      count: 7,
      hasMore: true,
    });
    const table = screen.getByRole('table', { name: 'Conversations' });
    expect(within(table).getByRole('link', { name: 'Fix it' })).toHaveAttribute('href', '/conversations/a');
    expect(within(table).getAllByText('octo/hello@main (GitHub)')).toHaveLength(2);
    expect(within(table).getAllByText('Running')).toHaveLength(2);
    expect(screen.getByText('7 conversations')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(onLoadMore).toHaveBeenCalled();
    await user.click(screen.getByRole('checkbox', { name: 'Select Fix it' }));
    expect(onSelect).toHaveBeenCalledWith(new Set(['a']));
  });

  it('shows how many sandboxes run against the cap, and what one more start does then', () => {
    setup({ capacity: { running: 5, max_running: 5, sandboxes: 6, max_sandboxes: 20 } });
    expect(screen.getByTestId('sandbox-capacity')).toHaveTextContent(
      '5 of 5 sandboxes running · 6 of 20 exist — starting another pauses the oldest running one',
    );
  });

  it('passes what is typed and chosen to its callbacks', async () => {
    const { user, onTitleInput, onTitleLeave, onFiltersChange } = setup();
    await user.type(screen.getByLabelText('Search titles'), 'x');
    expect(onTitleInput).toHaveBeenCalledWith('x');
    expect(onTitleLeave).not.toHaveBeenCalled();
    await user.tab();
    expect(onTitleLeave).toHaveBeenCalledTimes(1);
    await user.selectOptions(screen.getByLabelText('Sort'), 'TITLE');
    expect(onFiltersChange).toHaveBeenCalledWith({ sort: 'TITLE' });
    await user.click(screen.getByRole('switch', { name: 'Archived' }));
    expect(onFiltersChange).toHaveBeenCalledWith({ archived: true });
  });

  it('shows a filter to one sandbox, which can be removed alone or with the others', async () => {
    const { user, onFiltersChange } = setup({
      filters: { title: '', from: '', to: '', sort: 'CREATED_AT_DESC', archived: false, owner: '', sandbox: 'sb0123456789' },
    });
    await user.click(screen.getByRole('button', { name: "In sandbox sb0123456789: show every sandbox's" }));
    expect(onFiltersChange).toHaveBeenLastCalledWith({ sandbox: '' });
    // The one beside the filters (an empty list offers another).
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(onFiltersChange).toHaveBeenLastCalledWith({ title: '', from: '', to: '', owner: '', sandbox: '' });
  });

  it('acts on the selection', async () => {
    const { user, onBulk, onSelect } = setup({ items: [conversation('a', 'Fix it')], selected: new Set(['a']) });
    const toolbar = screen.getByRole('toolbar', { name: 'Selected conversations' });
    await user.click(within(toolbar).getByRole('button', { name: 'Archive (1)' }));
    await user.click(within(toolbar).getByRole('button', { name: 'Delete (1)' }));
    expect(onBulk.mock.calls).toEqual([['archive'], ['delete']]);
    await user.click(within(toolbar).getByRole('button', { name: 'Clear selection' }));
    expect(onSelect).toHaveBeenCalledWith(new Set());
  });

  it('without archiving (OpenHands): no Archived switch and no bulk archive', () => {
    setup({ items: [conversation('a', 'Fix it')], selected: new Set(['a']), canArchive: false });
    const toolbar = screen.getByRole('toolbar', { name: 'Selected conversations' });
    expect(within(toolbar).getByRole('button', { name: 'Delete (1)' })).toBeInTheDocument();
    expect(within(toolbar).queryByRole('button', { name: /Archive/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Archived' })).not.toBeInTheDocument();
  });

  it('offers no Sort where the server always sorts newest first (OpenHands)', () => {
    setup({ canSort: false });
    expect(screen.queryByLabelText('Sort')).not.toBeInTheDocument();
  });

  it('shows starts under way step by step, and a failed one with its reason, Retry and Dismiss', async () => {
    const failed = task('2', 'ERROR', 'Choose a git provider for octo/hello: none is connected');
    const { user, onRetryTask, onDismissTask } = setup({ tasks: [task('1', 'RUNNING_SETUP_SCRIPT'), failed] });
    expect(screen.getByRole('group', { name: 'Start of Task 1' })).toHaveTextContent('Step 4 of 7: Running the setup script');
    const error = screen.getByRole('group', { name: 'Start of Task 2' });
    expect(within(error).getByRole('alert')).toHaveTextContent('none is connected');
    await user.click(within(error).getByRole('button', { name: 'Retry' }));
    await user.click(within(error).getByRole('button', { name: 'Dismiss' }));
    expect(onRetryTask).toHaveBeenCalledWith(failed);
    expect(onDismissTask).toHaveBeenCalledWith(failed);
  });

  it('names whose a failed start of another user is, and offers only Dismiss: a Retry would run their task as you', async () => {
    const theirs = { ...task('3', 'ERROR', 'The sandbox failed'), created_by_user_id: 'alice-id' };
    const mine = { ...task('4', 'ERROR', 'The sandbox failed'), created_by_user_id: 'me' };
    setup({ tasks: [theirs, mine], signedInUserId: 'me', owners: [{ id: 'alice-id', name: 'Alice' }] });
    const their = screen.getByRole('group', { name: 'Start of Task 3' });
    expect(their).toHaveTextContent('Alice’s');
    expect(within(their).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(within(their).getByRole('button', { name: 'Dismiss' })).toBeInTheDocument();
    const own = screen.getByRole('group', { name: 'Start of Task 4' });
    expect(within(own).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(own).not.toHaveTextContent('’s');
  });
});
