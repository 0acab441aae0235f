import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { appConversation } from '../../../testing/conversations';
import { renderView } from '../../../testing/render';
import { ConversationView, type ConversationViewProps } from './conversation-view';

const conversation = appConversation({
  id: 'a'.repeat(32),
  title: 'Fix the tests',
  sandbox_id: 'b'.repeat(32),
  selected_repository: 'octo/hello',
  selected_branch: 'main',
  git_provider: 'github',
  trigger: 'gui',
  llm_model: 'openai/gpt-4o',
  metrics: {
    model_name: 'gpt-4o',
    accumulated_cost: 0.0421,
    max_budget_per_task: null,
    cost_known: true,
    accumulated_token_usage: {
      model: '',
      prompt_tokens: 12000,
      completion_tokens: 800,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      context_window: 0,
      per_turn_token: 0,
      response_id: '',
    },
  },
  conversation_url: 'http://127.0.0.1:4000/api/conversations/aaa',
  session_api_key: 'key',
  skills: ['docs', 'testing'],
});

function setup(props: Partial<ConversationViewProps> = {}) {
  const callbacks = { onRename: vi.fn(), onArchive: vi.fn(), onSandboxAction: vi.fn(), onDelete: vi.fn() };
  const view = renderView(
    <MemoryRouter>
      <ConversationView
        conversation={conversation}
        renaming={false}
        sandboxAction="pause"
        sandboxActionPending={false}
        {...callbacks}
        {...props}
      />
    </MemoryRouter>,
  );
  return { ...view, ...callbacks };
}

describe('ConversationView', () => {
  it('shows every field it has, both statuses, cost and tokens', () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Fix the tests' })).toBeInTheDocument();
    for (const text of ['octo/hello', 'main', 'GitHub', 'gui', 'openai/gpt-4o', 'docs, testing', '$0.0421', '12,000 in, 800 out']) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    // Each status says what it is the status of.
    expect(screen.getByText('Running').closest('[data-status]')?.previousElementSibling).toHaveTextContent('Sandbox');
    expect(screen.getByText('Idle').closest('[data-execution]')?.previousElementSibling).toHaveTextContent('Agent');
  });

  it("names its sandbox by the short id, also an OpenHands sandbox's, whose ids all start alike", () => {
    setup({ conversation: { ...conversation, sandbox_id: 'oh-agent-server-7Hq2xKp9Zt' } });
    const link = screen.getByRole('link', { name: '7Hq2xKp9' });
    expect(link).toHaveAttribute('href', `/sandboxes?logs=${encodeURIComponent('oh-agent-server-7Hq2xKp9Zt')}`);
  });

  it('links its parent and its sub-conversations, by title once known', () => {
    const [parent, first, second] = ['c', 'd', 'e'].map((c) => c.repeat(32)) as [string, string, string];
    setup({
      conversation: { ...conversation, parent_conversation_id: parent, sub_conversation_ids: [first, second] },
      relatedTitles: new Map([
        [parent, 'The whole task'],
        [first, 'Write the tests'],
      ]),
    });
    expect(screen.getByRole('link', { name: 'The whole task' })).toHaveAttribute('href', `/conversations/${parent}`);
    expect(screen.getByRole('link', { name: 'Write the tests' })).toHaveAttribute('href', `/conversations/${first}`);
    expect(screen.getByRole('link', { name: second.slice(0, 12) })).toHaveAttribute('href', `/conversations/${second}`);
  });

  it('has no parent or sub-conversation fields when it has neither', () => {
    setup();
    expect(screen.queryByText('Part of')).not.toBeInTheDocument();
    expect(screen.queryByText('Sub-conversations')).not.toBeInTheDocument();
  });

  it('renames inline: Enter saves what was typed, Escape keeps the title', async () => {
    const { user, onRename } = setup();
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('heading', { name: 'Fix the tests' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const title = screen.getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    expect(screen.getByText('A title cannot be empty')).toBeInTheDocument();
    await user.type(title, ' Better title {Enter}');
    expect(onRename).toHaveBeenCalledWith('Better title');
  });

  it('calls back for each action', async () => {
    const { user, onArchive, onSandboxAction, onDelete } = setup();
    await user.click(screen.getByRole('button', { name: 'Pause sandbox' }));
    await user.click(screen.getByRole('button', { name: 'Archive' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onSandboxAction).toHaveBeenCalledWith('pause');
    expect(onArchive).toHaveBeenCalledWith(true);
    expect(onDelete).toHaveBeenCalled();
  });

  it('shows a cost against its budget; an unknown price says the budget cannot apply', () => {
    const metrics = conversation.metrics!;
    const { unmount } = setup({ conversation: { ...conversation, metrics: { ...metrics, max_budget_per_task: 5 } } });
    expect(screen.getByText('of a $5.00 budget')).toBeInTheDocument();
    unmount();
    setup({ conversation: { ...conversation, metrics: { ...metrics, cost_known: false, max_budget_per_task: 5 } } });
    expect(screen.getByText('unknown')).toBeInTheDocument();
    expect(screen.getByText("This model's price is unknown, so the $5.00 budget can't apply.")).toBeInTheDocument();
    expect(screen.queryByText('$0.0421')).toBeNull();
  });

  it('says the demo model is the demo, and shows the agent part it is given', () => {
    setup({ conversation: { ...conversation, llm_model: 'demo/scripted' }, children: <p>The events</p> });
    expect(screen.getByText('Demo model')).toBeInTheDocument();
    expect(screen.getByText('The demo model: a scripted session, no LLM.')).toBeInTheDocument();
    expect(screen.getByText('The events')).toBeInTheDocument();
  });

  it('offers no sandbox action while its sandbox can do none', () => {
    setup({ sandboxAction: undefined, conversation: { ...conversation, sandbox_status: 'MISSING', execution_status: null } });
    expect(screen.queryByRole('button', { name: /sandbox$/ })).toBeNull();
    expect(screen.getByText('Missing')).toBeInTheDocument();
  });

  it('offers no Archive when the server cannot archive (OpenHands), and still Rename and Delete', () => {
    setup({ onArchive: undefined });
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Rename' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });
});
