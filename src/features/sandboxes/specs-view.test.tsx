import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SandboxSpec } from '../../contract/sandboxes';
import { renderView } from '../../testing/render';
import { SandboxSpecsTable, SpecDetails } from './specs-view';

const spec = (id: string, fields: Partial<SandboxSpec> = {}): SandboxSpec => ({
  id,
  command: ['node', 'main.js'],
  created_at: '2026-11-25T10:00:00Z',
  initial_env: {},
  working_dir: '',
  ...fields,
});

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('SandboxSpecsTable', () => {
  it('shows each spec’s image when the server runs them in images, and the image’s own command', async () => {
    const onDetails = vi.fn();
    const { user } = renderView(
      <SandboxSpecsTable
        specs={[
          spec('agent-server', { image: 'agent-console-sandbox:abc' }),
          spec('tools:1', { image: 'tools:1', command: null, working_dir: 'work' }),
        ]}
        onDetails={onDetails}
      />,
    );
    const table = screen.getByRole('table', { name: 'Sandbox specs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toContain('Image');
    const [, first, second] = within(table).getAllByRole('row');
    expect(cells(first!).slice(0, 3)).toEqual(['agent-serverdefault', 'agent-console-sandbox:abc', 'node main.js']);
    expect(cells(second!).slice(0, 4)).toEqual(['tools:1', 'tools:1', "(the image's own)", 'work']);
    await user.click(screen.getByRole('button', { name: 'Details of tools:1' }));
    expect(onDetails).toHaveBeenCalledWith('tools:1');
  });

  it('has no image column when no spec runs in an image (processes, OpenHands)', () => {
    renderView(<SandboxSpecsTable specs={[spec('agent-server'), spec('python', { image: null })]} onDetails={vi.fn()} />);
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).not.toContain('Image');
    expect(headers).toContain('Command');
  });
});

describe('SpecDetails', () => {
  it('shows the image and that its own command runs, and starts from the spec', async () => {
    const onStart = vi.fn();
    const { user } = renderView(
      <SpecDetails spec={spec('tools:1', { image: 'tools:1', command: null })} onStart={onStart} starting={false} />,
    );
    expect(screen.getByRole('heading', { name: 'Image' }).parentElement).toHaveTextContent('tools:1');
    expect(screen.getByRole('heading', { name: 'Command' }).parentElement).toHaveTextContent("(the image's own)");
    await user.click(screen.getByRole('button', { name: 'Start sandbox from this spec' }));
    expect(onStart).toHaveBeenCalled();
  });

  it('shows no image for a spec without one, and hides environment values until asked', async () => {
    const { user } = renderView(
      <SpecDetails spec={spec('python', { command: null, initial_env: { TOKEN: 's3cret' } })} onStart={vi.fn()} starting={false} />,
    );
    expect(screen.queryByRole('heading', { name: 'Image' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Command' }).parentElement).toHaveTextContent('(none)');
    expect(screen.queryByText('s3cret')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show TOKEN' }));
    expect(screen.getByText('s3cret')).toBeInTheDocument();
  });
});
