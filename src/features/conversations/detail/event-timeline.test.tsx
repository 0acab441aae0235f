import { cleanup, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors';
import {
  agentError,
  agentMessage,
  condensation,
  conversationError,
  fileEditAction,
  fileEditObservation,
  fileObservation,
  finishAction,
  mcpAction,
  mcpObservation,
  pause,
  rejection,
  systemPrompt,
  terminalAction,
  terminalObservation,
  userMessage,
} from '../../../testing/events';
import { renderView } from '../../../testing/render';
import { EventTimeline, type EventTimelineProps } from './event-timeline';
import { buildTimeline, receive, type TimelineItem } from './timeline';

// The agent's markdown renders from code loaded on first use: loaded before the tests, so that what
// their findBy waits for is the render, not this worker's first transform of it on a busy machine.
beforeAll(() => import('../../../components/markdown'), 60_000);

// jsdom lays nothing out: the scroll area gets a height, so the virtualizer has rows to show.
beforeEach(() => {
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(600);
});
afterEach(() => vi.restoreAllMocks());

const ALL_KINDS = buildTimeline(
  [
    systemPrompt('s', { echo: 'tools' }),
    userMessage('u', 'List the files'),
    agentMessage('m', 'Here is **the plan**:\n\n```sh\nls -la\n```'),
    terminalAction('a1', 'ls -la', 'Let me look around.'),
    terminalObservation('o1', 'a1', 'total 8\nREADME.md', 0),
    terminalAction('a2', 'cat missing'),
    terminalObservation('o2', 'a2', 'cat: missing: No such file', 1),
    fileEditAction('a3', 'create', '/workspace/notes.md'),
    fileObservation('o3', 'a3', 'File created'),
    mcpAction('m1', 'echo', { text: 'hello' }),
    mcpObservation('mo1', 'm1', 'echo', 'echo: hello'),
    { ...terminalAction('a4', 'rm -rf build'), security_risk: 'HIGH' },
    rejection('x4', 'a4', 'Keep the build'),
    terminalAction('a5', 'make'),
    agentError('e5', 'call-a5', 'The terminal crashed'),
    conversationError('c', 'LLM_AUTH', 'The LLM rejected the key (Settings › LLM)'),
    pause('p1'),
    pause('p2', 'sandbox_paused'),
    finishAction('f', 'All done: see notes.md'),
    condensation('k', ['u', 'm'], 'USER_CONTEXT: list the files'),
    terminalAction('a6', 'npm test'),
  ].map(receive),
  'waiting_for_confirmation',
);

function setup(props: Partial<EventTimelineProps> = {}) {
  return renderView(
    <MemoryRouter>
      <EventTimeline items={ALL_KINDS} connection={{ state: 'open' }} history={null} {...props} />
    </MemoryRouter>,
  );
}

const action = (name: string) => screen.getByRole('group', { name: `Action: ${name}` });

describe('EventTimeline', () => {
  it("shows messages on their sides, the agent's in markdown with code blocks", async () => {
    setup();
    expect(within(screen.getByRole('group', { name: 'Your message' })).getByText('List the files')).toBeInTheDocument();
    const agent = screen.getByRole('group', { name: "Agent's message" });
    expect(await within(agent).findByText('the plan')).toHaveProperty('tagName', 'STRONG');
    expect(agent.querySelector('pre code')).toHaveTextContent('ls -la');
    expect(
      await within(screen.getByRole('group', { name: "Agent's final message" })).findByText('All done: see notes.md'),
    ).toBeInTheDocument();
  });

  it('shows each action with its tool, command or file, and status', () => {
    setup();
    expect(within(action('ls -la')).getByText('$ ls -la')).toBeInTheDocument();
    expect(within(action('ls -la')).getByLabelText('Terminal')).toBeInTheDocument();
    expect(within(action('ls -la')).getByText('Let me look around.')).toBeInTheDocument();
    expect(within(action('ls -la')).getByText('Done · exit code 0')).toBeInTheDocument();
    expect(within(action('cat missing')).getByText('Failed · exit code 1')).toBeInTheDocument();
    expect(within(action('Create /workspace/notes.md')).getByLabelText('File editor')).toBeInTheDocument();
    expect(within(action('Create /workspace/notes.md')).getByText('Done')).toBeInTheDocument();
    expect(within(action('rm -rf build')).getByText('Rejected')).toBeInTheDocument();
    // The model's rating, when it gave one (the LLM security analyzer); none said, none shown.
    expect(within(action('rm -rf build')).getByText('High risk')).toBeInTheDocument();
    expect(within(action('ls -la')).queryByText(/risk/)).toBeNull();
    expect(within(action('rm -rf build')).getByText('Rejected: Keep the build')).toBeInTheDocument();
    expect(within(action('make')).getByText('Error')).toBeInTheDocument();
    expect(within(action('make')).getByText('The terminal crashed')).toBeInTheDocument();
    expect(within(action('npm test')).getByText('Waiting for approval')).toBeInTheDocument();
    const mcp = action('tools › echo {"text":"hello"}');
    expect(within(mcp).getByLabelText('MCP tool')).toBeInTheDocument();
    expect(within(mcp).getByText('Done')).toBeInTheDocument();
  });

  it("shows a message's images beside its text", () => {
    const withImage = {
      ...userMessage('ui', 'What is this?'),
      llm_message: {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', image_urls: ['data:image/png;base64,iVBORw=='] },
        ],
      },
    };
    setup({ items: buildTimeline([withImage].map(receive), 'idle') });
    const bubble = screen.getByRole('group', { name: 'Your message' });
    expect(within(bubble).getByText('What is this?')).toBeInTheDocument();
    expect(within(bubble).getByRole('img', { name: 'Image 1 of the message' })).toHaveAttribute('src', 'data:image/png;base64,iVBORw==');
  });

  it("shows each edit's diff: the lines it took out and put in", async () => {
    const items = buildTimeline(
      [
        fileEditAction('e1', 'str_replace', '/workspace/app.py'),
        fileEditObservation('eo1', 'e1', 'str_replace', '/workspace/app.py', 'import os\nprint(1)\n', 'import os\nprint(2)\n'),
        fileEditAction('e2', 'create', '/workspace/new.md'),
        fileEditObservation('eo2', 'e2', 'create', '/workspace/new.md', null, '# new\n'),
        fileEditAction('e3', 'view', '/workspace/app.py'),
        fileEditObservation('eo3', 'e3', 'view', '/workspace/app.py', null, 'import os\n'),
      ].map(receive),
      'idle',
    );
    setup({ items });
    const replaced = await within(action('Edit /workspace/app.py')).findByRole('figure', { name: 'Diff of /workspace/app.py' });
    expect(within(replaced).getByText('print(1)')).toBeInTheDocument();
    expect(within(replaced).getByText('print(2)')).toBeInTheDocument();
    expect(within(replaced).getByText('print(1)').closest('td')).toHaveClass('diff-code-delete');
    expect(within(replaced).getByText('print(2)').closest('td')).toHaveClass('diff-code-insert');
    const created = await within(action('Create /workspace/new.md')).findByRole('figure', { name: 'Diff of /workspace/new.md' });
    expect(within(created).getByText('# new').closest('td')).toHaveClass('diff-code-insert');
    // Viewing a file changes nothing: no diff.
    expect(within(action('View /workspace/app.py')).queryByRole('figure')).toBeNull();
  });

  it("shows a running command's output as it comes: its last lines, saying how many came before", () => {
    const [item] = buildTimeline([terminalAction('r1', 'npm test')].map(receive), 'running');
    const lines = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n');
    setup({ items: [{ ...(item as Extract<TimelineItem, { type: 'action' }>), liveOutput: `${lines}\n` }] });
    const live = within(action('npm test')).getByRole('log', { name: 'Live output' });
    expect(live).toHaveTextContent('5 earlier lines');
    expect(live).toHaveTextContent('line 25');
    expect(live.textContent).not.toMatch(/\bline 5\b/);
    expect(within(action('npm test')).getByText('Running')).toBeInTheDocument();
  });

  it('folds output away; opened, it shows in a monospace block, an error highlighted', async () => {
    const { user } = setup();
    const output = within(action('ls -la')).getByRole('button', { name: 'Output' });
    expect(output).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/README\.md/)).toBeNull();
    await user.click(output);
    expect(output).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/README\.md/).tagName).toBe('PRE');
    await user.click(within(action('cat missing')).getByRole('button', { name: 'Output (error)' }));
    expect(screen.getByText('cat: missing: No such file')).toHaveAttribute('data-error', 'true');
    await user.click(output);
    expect(screen.queryByText(/README\.md/)).toBeNull();
  });

  it('highlights a conversation error with its detail and a way to Settings › LLM; shows both pauses; folds the system prompt', async () => {
    const { user } = setup();
    const error = screen.getByRole('alert');
    expect(error).toHaveTextContent('The LLM rejected the key');
    expect(within(error).getByRole('link', { name: 'Settings › LLM' })).toHaveAttribute('href', '/settings#llm');
    expect(screen.getByText('Paused')).toBeInTheDocument();
    expect(screen.getByText('Paused because its sandbox was paused')).toBeInTheDocument();
    expect(screen.queryByText('You are a helpful agent.')).toBeNull();
    expect(screen.getByText('Tools: terminal, file_editor, finish, echo (MCP server tools)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'System prompt · 4 tools' }));
    expect(screen.getByText('You are a helpful agent.')).toBeInTheDocument();
    const summarised = screen.getByRole('note', { name: 'Earlier history summarised' });
    expect(summarised).toHaveTextContent('Earlier history summarised for the model (2 events)');
    expect(screen.queryByText('USER_CONTEXT: list the files')).toBeNull();
    await user.click(within(summarised).getByRole('button', { name: 'Summary' }));
    expect(screen.getByText('USER_CONTEXT: list the files')).toBeInTheDocument();
  });

  it('shows partial text as it streams, and what the connection is doing', () => {
    const streaming: TimelineItem = { type: 'streaming', key: 'streaming-r9', text: 'I will now' };
    setup({
      items: [...ALL_KINDS, streaming],
      connection: { state: 'retrying', error: new ApiError('Cannot reach the server', 'network', 0) },
      history: { received: 18, total: 40 },
    });
    expect(within(screen.getByRole('group', { name: 'The agent is writing' })).getByText('I will now')).toBeInTheDocument();
    expect(screen.getByText('Live updates interrupted (Cannot reach the server); reconnecting…')).toBeInTheDocument();
    expect(screen.getByText('Loading the history: 18 of 40 events')).toBeInTheDocument();
  });

  it('says when there is nothing yet', () => {
    setup({ items: [] });
    expect(screen.getByText('No events yet. A message starts the agent.')).toBeInTheDocument();
    // Where no message can be sent from the page (an admin's view, OpenHands' server), it promises none.
    cleanup();
    setup({ items: [], canSend: false });
    expect(screen.getByText('No events yet.')).toBeInTheDocument();
    expect(screen.queryByText(/A message starts the agent/)).not.toBeInTheDocument();
  });

  it('puts only the rows in view in the page, however long the history', () => {
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(100);
    const long = buildTimeline(
      Array.from({ length: 1000 }, (_, i) => receive(userMessage(`u${i}`, `Message ${i}`))),
      'idle',
    );
    setup({ items: long });
    const rows = screen.getByRole('log', { name: 'Conversation events' }).querySelectorAll('[data-index]');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(40);
  });
});
