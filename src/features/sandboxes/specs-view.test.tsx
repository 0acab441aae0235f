import { MantineProvider } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SandboxSpec } from '../../contract/sandboxes';
import { renderView } from '../../testing/render';
import { SpecDetails } from './spec-details';
import { SandboxSpecsList } from './specs-view';

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

describe('SandboxSpecsList', () => {
  it('shows each spec’s image when the server runs them in images, and the image’s own command', async () => {
    const onDetails = vi.fn();
    const { user } = renderView(
      <SandboxSpecsList
        specs={[
          spec('agent-server', { image: 'agent-console-sandbox:abc' }),
          spec('tools:1', { image: 'tools:1', command: null, working_dir: 'work' }),
        ]}
        onDetails={onDetails}
        onStart={vi.fn()}
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
    renderView(<SandboxSpecsList specs={[spec('agent-server'), spec('python', { image: null })]} onDetails={vi.fn()} onStart={vi.fn()} />);
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).not.toContain('Image');
    expect(headers).toContain('Command');
  });
  it('starts a sandbox from a spec in one click, one start at a time', async () => {
    const onStart = vi.fn();
    const { user, rerender } = renderView(
      <SandboxSpecsList specs={[spec('agent-server'), spec('python')]} onDetails={vi.fn()} onStart={onStart} />,
    );
    await user.click(screen.getByRole('button', { name: 'Start a sandbox from python' }));
    expect(onStart).toHaveBeenCalledWith('python');
    rerender(
      <MantineProvider env="test">
        <SandboxSpecsList specs={[spec('agent-server'), spec('python')]} onDetails={vi.fn()} onStart={onStart} startingId="python" />
      </MantineProvider>,
    );
    expect(screen.getByRole('button', { name: 'Start a sandbox from agent-server' })).toBeDisabled();
  });

  it('shows cards on a narrow screen, each with its command, Start and Details', async () => {
    const onStart = vi.fn();
    const onDetails = vi.fn();
    const { user } = renderView(
      <SandboxSpecsList
        layout="cards"
        specs={[spec('agent-server'), spec('tools:1', { image: 'tools:1', command: null })]}
        onDetails={onDetails}
        onStart={onStart}
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'Sandbox specs' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('agent-serverdefault');
    expect(cards[0]).toHaveTextContent('node main.js');
    expect(cards[1]).toHaveTextContent('Image: tools:1');
    await user.click(within(cards[1]!).getByRole('button', { name: 'Start a sandbox from tools:1' }));
    expect(onStart).toHaveBeenCalledWith('tools:1');
    await user.click(within(cards[1]!).getByRole('button', { name: 'Details of tools:1' }));
    expect(onDetails).toHaveBeenCalledWith('tools:1');
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
