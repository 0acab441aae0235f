import { screen, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import type { McpConfigResponse } from '../../contract/mcp';
import { renderView } from '../../testing/render';
import { entryFor, formValuesFor, type McpServerFormValues, type McpServerRow, serverRows } from './mcp-model';
import { type ConnectionTest, type FailedSave, McpServerDrawerView } from './mcp-server-drawer-view';

const config: McpConfigResponse = {
  stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: {} }],
  sse_servers: [{ url: 'https://a.example/sse', api_key: null, api_key_set: true }],
  shttp_servers: [],
};
const [stdioRow, sseRow] = serverRows(config) as [McpServerRow, McpServerRow];
const noTest: ConnectionTest = { entry: null, pending: false, result: undefined, error: null };

function Harness({
  row,
  failed,
  test,
  callbacks,
  canTest,
}: {
  row: McpServerRow | null;
  failed: FailedSave | null;
  test: ConnectionTest;
  callbacks: Callbacks;
  canTest: boolean;
}) {
  const form = useForm<McpServerFormValues>({ defaultValues: formValuesFor(row) });
  return (
    <McpServerDrawerView
      form={form}
      row={row}
      failed={failed}
      test={test}
      onSubmit={(event) => {
        event.preventDefault();
        callbacks.onSubmit();
      }}
      onTest={canTest ? callbacks.onTest : undefined}
      onClose={callbacks.onClose}
    />
  );
}

type Callbacks = Record<'onSubmit' | 'onTest' | 'onClose', () => void>;

async function setup({
  row = null,
  failed = null,
  test = noTest,
  canTest = true,
}: {
  row?: McpServerRow | null;
  failed?: FailedSave | null;
  test?: ConnectionTest;
  canTest?: boolean;
}) {
  const callbacks = { onSubmit: vi.fn(), onTest: vi.fn(), onClose: vi.fn() };
  const view = renderView(<Harness row={row} failed={failed} test={test} callbacks={callbacks} canTest={canTest} />);
  const drawer = await screen.findByRole('dialog');
  return { ...view, ...callbacks, drawer };
}

const input = (scope: HTMLElement, label: string) => within(scope).getByLabelText(label, { selector: 'input' });

describe('McpServerDrawerView', () => {
  it('adds a stdio server by default, and each button calls back', async () => {
    const { user, drawer, onSubmit, onTest, onClose } = await setup({});
    expect(drawer).toHaveAccessibleName('Add MCP server');
    expect(input(drawer, 'Name')).toHaveValue('');
    await user.click(within(drawer).getByRole('button', { name: 'Test connection' }));
    expect(onTest).toHaveBeenCalled();
    await user.click(within(drawer).getByRole('button', { name: 'Add server' }));
    expect(onSubmit).toHaveBeenCalled();
    await user.click(within(drawer).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('has no Test connection when the server cannot test (OpenHands)', async () => {
    const { drawer } = await setup({ row: sseRow, canTest: false });
    expect(within(drawer).getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Test connection' })).not.toBeInTheDocument();
  });

  it('edits a stdio server with its command and arguments', async () => {
    const { drawer } = await setup({ row: stdioRow });
    expect(drawer).toHaveAccessibleName('Edit fetch');
    expect(input(drawer, 'Command')).toHaveValue('uvx');
    expect(input(drawer, 'Argument 1')).toHaveValue('mcp-server-fetch');
    expect(within(drawer).getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('edits a remote server, saying its API key is stored', async () => {
    const { drawer } = await setup({ row: sseRow });
    expect(input(drawer, 'URL')).toHaveValue('https://a.example/sse');
    expect(within(drawer).getByTestId('api_key-status')).toHaveTextContent('Set');
  });

  it('shows the result of a test of the entry as it is', async () => {
    const entry = JSON.stringify(entryFor(formValuesFor(stdioRow), stdioRow));
    const { drawer } = await setup({
      row: stdioRow,
      test: { entry, pending: false, result: { ok: true, tools: [{ name: 'fetch', description: 'Fetches a URL' }] }, error: null },
    });
    expect(within(drawer).getByRole('status')).toHaveTextContent('Connected: 1 tool');
  });

  it('shows a failed save, naming other servers by what they are', async () => {
    const failed: FailedSave = {
      problem: {
        message: 'Nothing was saved. The server rejected these:',
        unmatched: [{ type: 'value_error', loc: ['body', 'mcp_config', 'stdio_servers', 0, 'name'], msg: 'Value error, Bad name' }],
      },
      sent: config,
    };
    const { drawer } = await setup({ row: sseRow, failed });
    const alert = within(drawer).getByRole('alert');
    expect(alert).toHaveTextContent('Server not saved');
    expect(alert).toHaveTextContent('stdio server “fetch” › name: Bad name');
  });
});
