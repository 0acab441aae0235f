import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import type { SandboxInfo, SandboxStatus } from '../../contract/sandboxes';
import { renderView } from '../../testing/render';
import { SandboxesView, type SandboxesViewProps } from './sandboxes-view';

const sandbox = (id: string, status: SandboxStatus, fields: Partial<SandboxInfo> = {}): SandboxInfo => ({
  id,
  status,
  created_by_user_id: null,
  sandbox_spec_id: 'agent-server',
  session_api_key: null,
  exposed_urls: null,
  created_at: '2026-11-25T10:00:00Z',
  ...fields,
});

const LONG_ID = '0123456789abcdef0123456789abcdef';
const running = (id = LONG_ID) =>
  sandbox(id, 'RUNNING', {
    session_api_key: 'the-key',
    exposed_urls: [{ name: 'AGENT_SERVER', url: 'http://127.0.0.1:41011', port: 41011 }],
  });

function setup(props: Partial<SandboxesViewProps> = {}) {
  const callbacks = {
    onRetry: vi.fn(),
    onSelect: vi.fn(),
    onFiltersChange: vi.fn(),
    onStart: vi.fn(),
    onAction: vi.fn(),
    onStartAgain: vi.fn(),
    onBulk: vi.fn(),
    onLogs: vi.fn(),
  };
  const view = renderView(
    <SandboxesView
      filters={{}}
      page={{ items: [], next_page_id: null }}
      error={null}
      specIds={['agent-server']}
      inFlight={new Map()}
      selected={new Set()}
      {...callbacks}
      {...props}
    />,
  );
  return { ...view, ...callbacks };
}

describe('SandboxesView', () => {
  const capacity = { running: 1, max_running: 5, sandboxes: 2, max_sandboxes: 20 };

  it.each([
    ['docker', 'container', "Runtime: Docker — each sandbox is a container on the server's Docker engine."],
    ['process', 'namespaces', "Runtime: process — each sandbox is a group of processes on the server's machine, in namespaces of its own."],
    ['process', 'uids', "Runtime: process — each sandbox is a group of processes on the server's machine, as a user of its own."],
    ['process', undefined, "Runtime: process — each sandbox is a group of processes on the server's machine."],
  ] as const)('says where sandboxes run and what keeps them apart: %s, %s', (runtime, isolation, text) => {
    setup({ capacity: { ...capacity, runtime, isolation } });
    expect(screen.getByTestId('sandbox-runtime')).toHaveTextContent(text);
  });

  it('warns when nothing keeps sandboxes apart from the server', () => {
    setup({ capacity: { ...capacity, runtime: 'process', isolation: 'none' } });
    expect(screen.getByTestId('sandbox-runtime')).toHaveTextContent(
      /Not isolated: sandboxes run as the server's user and can read its data directory/,
    );
  });

  it('says nothing of the runtime when the server does not (OpenHands)', () => {
    setup({ capacity });
    expect(screen.getByTestId('sandbox-capacity')).toBeInTheDocument();
    expect(screen.queryByTestId('sandbox-runtime')).toBeNull();
  });

  it('shows a skeleton while the list loads', () => {
    setup({ page: undefined });
    expect(screen.getByLabelText('Loading sandboxes')).toBeInTheDocument();
  });

  it('offers to start the first sandbox when there is none', async () => {
    const { user, onStart } = setup();
    expect(screen.getByText('No sandboxes yet')).toBeInTheDocument();
    for (const button of screen.getAllByRole('button', { name: 'Start sandbox' })) await user.click(button);
    expect(onStart).toHaveBeenCalledTimes(2);
  });

  it('offers to clear filters that match nothing', async () => {
    const { user, onFiltersChange } = setup({ filters: { status: 'PAUSED' } });
    expect(screen.getByText('No sandboxes match these filters')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(onFiltersChange).toHaveBeenCalledWith({ status: undefined, spec: undefined });
  });

  it('shows a load error with a retry', async () => {
    const { user, onRetry } = setup({ page: undefined, error: new ApiError('Cannot reach the server', 'network', 0) });
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load sandboxes');
    expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the server');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('lists the sandboxes, each with its actions', async () => {
    const running = sandbox('run-1', 'RUNNING');
    const paused = sandbox('pau-2', 'PAUSED');
    const { user, onAction, onSelect } = setup({ page: { items: [running, paused], next_page_id: null } });
    const table = screen.getByRole('table', { name: 'Sandboxes' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Pause run-1' }));
    expect(onAction).toHaveBeenLastCalledWith('pause', running);
    await user.click(screen.getByRole('button', { name: 'Resume pau-2' }));
    expect(onAction).toHaveBeenLastCalledWith('resume', paused);

    await user.click(screen.getByRole('checkbox', { name: 'Select run-1' }));
    expect(onSelect).toHaveBeenLastCalledWith(new Set(['run-1']));
    await user.click(screen.getByRole('checkbox', { name: 'Select all sandboxes on this page' }));
    expect(onSelect).toHaveBeenLastCalledWith(new Set(['run-1', 'pau-2']));
  });

  it.each([
    ['Logs', 'onLogs', ['run-1']],
    ['Delete', 'onAction', ['delete', sandbox('run-1', 'RUNNING')]],
  ] as const)('offers %s in a row’s menu', async (item, callback, args) => {
    const view = setup({ page: { items: [sandbox('run-1', 'RUNNING')], next_page_id: null } });
    await view.user.click(screen.getByRole('button', { name: 'More actions for run-1' }));
    await view.user.click(await screen.findByRole('menuitem', { name: item }));
    expect(view[callback]).toHaveBeenCalledWith(...args);
  });

  it('against a server without logs or filters (OpenHands): no Logs item, and filters that apply to the page say so', async () => {
    const view = setup({
      page: { items: [sandbox('run-1', 'RUNNING')], next_page_id: null },
      filters: { status: 'RUNNING' },
      filtersOnClient: true,
      onLogs: undefined,
    });
    expect(screen.getByText(/This server ignores sandbox filters/)).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'More actions for run-1' }));
    expect(await screen.findByRole('menuitem', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Logs' })).not.toBeInTheDocument();
  });

  it('says nothing of filters applied on the page while none is set', () => {
    setup({ page: { items: [sandbox('run-1', 'RUNNING')], next_page_id: null }, filtersOnClient: true });
    expect(screen.queryByText(/This server ignores sandbox filters/)).not.toBeInTheDocument();
  });

  it('offers the bulk actions that apply to the selection, and clears it', async () => {
    const { user, onBulk, onSelect } = setup({
      page: { items: [sandbox('a', 'RUNNING'), sandbox('b', 'PAUSED')], next_page_id: null },
      selected: new Set(['a']),
    });
    const toolbar = screen.getByRole('toolbar', { name: 'Selected sandboxes' });
    expect(within(toolbar).getByRole('button', { name: 'Resume (0)' })).toBeDisabled();
    await user.click(within(toolbar).getByRole('button', { name: 'Pause (1)' }));
    expect(onBulk).toHaveBeenCalledWith('pause');
    await user.click(within(toolbar).getByRole('button', { name: 'Clear selection' }));
    expect(onSelect).toHaveBeenCalledWith(new Set());
  });

  it('changes filters and pages through callbacks', async () => {
    const { user, onStart, onFiltersChange } = setup({
      filters: { pageId: 'p1' },
      page: { items: [sandbox('a', 'RUNNING')], next_page_id: 'p2' },
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'PAUSED');
    expect(onFiltersChange).toHaveBeenLastCalledWith({ status: 'PAUSED' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Spec' }), 'agent-server');
    expect(onFiltersChange).toHaveBeenLastCalledWith({ spec: 'agent-server' });
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onFiltersChange).toHaveBeenLastCalledWith({ page: 'p2' });
    await user.click(screen.getByRole('button', { name: 'First page' }));
    expect(onFiltersChange).toHaveBeenLastCalledWith({ page: undefined });
    await user.click(screen.getByRole('button', { name: 'Start sandbox' }));
    expect(onStart).toHaveBeenCalled();
  });

  it('says how many run and exist against the caps', () => {
    setup({ capacity: { running: 3, max_running: 5, sandboxes: 12, max_sandboxes: 20 } });
    expect(screen.getByTestId('sandbox-capacity')).toHaveTextContent('3 of 5 sandboxes running · 12 of 20 exist');
  });

  it('shows a short id, the full one on hover and in the copy button', async () => {
    const { user } = setup({ page: { items: [running()], next_page_id: null } });
    const id = within(screen.getByRole('table', { name: 'Sandboxes' })).getAllByTestId('copy-value')[0]!;
    expect(id).toHaveTextContent(/^01234567$/);
    expect(id).toHaveAttribute('title', LONG_ID);
    await user.click(screen.getByRole('button', { name: `Copy id of ${LONG_ID}` }));
    expect(await navigator.clipboard.readText()).toBe(LONG_ID);
  });

  it('shows the agent server URL as text to copy, not a link, with the key and how to call it', async () => {
    const { user } = setup({ page: { items: [running()], next_page_id: null } });
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('127.0.0.1:41011')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Copy agent server URL of ${LONG_ID}` }));
    expect(await navigator.clipboard.readText()).toBe('http://127.0.0.1:41011');
    await user.click(screen.getByRole('button', { name: `Copy session key of ${LONG_ID}` }));
    expect(await navigator.clipboard.readText()).toBe('the-key');
    expect(screen.queryByText('the-key')).toBeNull();
    expect(screen.getByTestId('agent-server-hint')).toHaveTextContent('X-Session-API-Key');
  });

  it('has no agent server hint when no sandbox runs', () => {
    setup({ page: { items: [sandbox('p', 'PAUSED')], next_page_id: null } });
    expect(screen.queryByTestId('agent-server-hint')).toBeNull();
  });

  it.each([
    ['ERROR', 'The process exited with code 3: config file missing', 'process', 'The process exited with code 3: config file missing'],
    ['MISSING', null, 'process', 'Its processes are gone: they ended, or were ended outside Agent Console'],
    ['MISSING', null, 'docker', 'Its container is gone (removed outside Agent Console)'],
    ['MISSING', null, undefined, 'It is gone (removed outside Agent Console)'],
  ] as const)('offers Delete and Start again for a sandbox in %s, and says why (%s, %s)', async (status, detail, runtime, why) => {
    const ended = sandbox('end-1', status, { status_detail: detail });
    const { user, onAction, onStartAgain } = setup({
      page: { items: [ended], next_page_id: null },
      capacity: { running: 0, max_running: 5, sandboxes: 1, max_sandboxes: 20, runtime },
    });
    expect(screen.getByTestId('status-reason')).toHaveTextContent(why);
    expect(screen.queryByRole('button', { name: 'Pause end-1' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete end-1' }));
    expect(onAction).toHaveBeenLastCalledWith('delete', ended);
    await user.click(screen.getByRole('button', { name: 'Start again end-1' }));
    expect(onStartAgain).toHaveBeenCalledWith(ended);
  });

  it('shows a start again under way', () => {
    setup({ page: { items: [sandbox('end-1', 'ERROR')], next_page_id: null }, startingAgainId: 'end-1' });
    expect(screen.getByRole('button', { name: 'Start again end-1' })).toHaveAttribute('data-loading', 'true');
  });

  it('shows cards on a narrow screen, each with its status, why, and main action', async () => {
    const failed = sandbox(`oh-agent-server-${LONG_ID}`, 'ERROR', { status_detail: 'exited with code 3' });
    const { user, onAction, onSelect } = setup({ layout: 'cards', page: { items: [running(), failed], next_page_id: null } });
    expect(screen.queryByRole('table')).toBeNull();
    const [first, second] = within(screen.getByRole('list', { name: 'Sandboxes' })).getAllByRole('listitem');
    expect(within(first!).getByText('Running')).toBeInTheDocument();
    expect(within(first!).getByText('127.0.0.1:41011')).toBeInTheDocument();
    await user.click(within(first!).getByRole('button', { name: `Pause ${LONG_ID}` }));
    expect(onAction).toHaveBeenLastCalledWith('pause', running());
    expect(within(second!).getByTestId('copy-value')).toHaveTextContent(/^01234567$/); // OpenHands' prefix left out
    expect(within(second!).getByText('Error')).toBeInTheDocument();
    expect(within(second!).getByTestId('status-reason')).toHaveTextContent('exited with code 3');
    expect(within(second!).getByRole('button', { name: `Delete ${failed.id}` })).toBeVisible();
    await user.click(screen.getByRole('checkbox', { name: 'Select all sandboxes on this page' }));
    expect(onSelect).toHaveBeenLastCalledWith(new Set([LONG_ID, failed.id]));
  });
});
