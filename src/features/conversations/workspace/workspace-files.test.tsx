import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../../../testing/render';
import { fakeApi, json, testQueryClient } from '../../../testing/fake-api';
import { MAX_SHOWN_BYTES } from '../../../queries/workspace';
import { WorkspaceFiles } from './workspace-files';
import type { WorkspaceSandbox } from './workspace-sandbox';

const FILES = '/api/v1/app-conversations/c1/workspace';

const sandboxThat = (status: WorkspaceSandbox['status'], onContinue = () => undefined): WorkspaceSandbox => ({
  status,
  onResume: () => undefined,
  resuming: false,
  continuation: { onContinue, task: null, onDismiss: () => undefined, asking: false, error: null },
});

function renderFiles(open: string, sandbox = sandboxThat('RUNNING')) {
  const api = fakeApi({
    [`GET ${FILES}/files`]: () =>
      json(200, {
        path: '/home/s/workspace',
        truncated: false,
        entries: [
          { name: 'big.bin', type: 'file', size: MAX_SHOWN_BYTES + 1, modified_at: '2026-11-29T05:00:00.000Z' },
          { name: 'notes.md', type: 'file', size: 6, modified_at: '2026-11-29T05:00:00.000Z' },
          { name: 'host', type: 'link', size: null, modified_at: '2026-11-29T05:00:00.000Z', link_target: '/' },
        ],
      }),
    [`GET ${FILES}/file`]: () =>
      new Response('# hi\n', { status: 200, headers: { 'content-disposition': "attachment; filename*=UTF-8''notes.md" } }),
  });
  renderView(
    <MantineProvider env="test">
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter initialEntries={[`/conversations/c1?tab=files&open=${open}`]}>
          <WorkspaceFiles conversationId="c1" sandbox={sandbox} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return api;
}

describe('WorkspaceFiles', () => {
  it('lists a link with where it points, and does not open it', async () => {
    renderFiles('notes.md');
    const link = await screen.findByRole('button', { name: /host\s*→ \// });
    expect(link).toBeDisabled();
    expect(link).toHaveAccessibleName(/^Link \(not followed\) host\s*→ \/$/);
  });

  it('shows a small text file, read from the workspace', async () => {
    const api = renderFiles('notes.md');
    expect(await screen.findByText('# hi')).toBeInTheDocument();
    expect(api.calls()).toContain(`GET ${FILES}/file?path=notes.md`);
  });

  it('offers a file the listing says is too large for download, without reading it', async () => {
    const api = renderFiles('big.bin');
    expect(await screen.findByText(/Too large to show here/)).toBeInTheDocument();
    await waitFor(() => expect(api.calls()).toContain(`GET ${FILES}/files?path=`));
    expect(api.calls().some((call) => call.startsWith(`GET ${FILES}/file?`))).toBe(false);
  });

  it('offers to go on in a new sandbox when its own is gone, and reads nothing meanwhile', async () => {
    const onContinue = vi.fn();
    const api = renderFiles('notes.md', sandboxThat('MISSING', onContinue));
    expect(screen.getByText('Its sandbox is gone, and its workspace with it: its files cannot be read.')).toBeInTheDocument();
    screen.getByRole('button', { name: 'Continue in a new sandbox' }).click();
    expect(onContinue).toHaveBeenCalledTimes(1);
    expect(api.calls()).toEqual([]);
  });

  it('offers Resume for a paused sandbox', () => {
    renderFiles('notes.md', sandboxThat('PAUSED'));
    expect(screen.getByText('The workspace can be read while its sandbox runs: resume it to see its files.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume sandbox' })).toBeInTheDocument();
  });
});
