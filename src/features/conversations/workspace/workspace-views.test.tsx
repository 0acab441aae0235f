import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DirectoryListing } from '../../../contract/workspace';
import { renderView } from '../../../testing/render';
import { ChangesView, type ChangesViewProps } from './changes-view';
import { FilesView, type FilesViewProps } from './files-view';

describe('ChangesView', () => {
  const setup = (props: Partial<ChangesViewProps> = {}) => {
    const callbacks = { onSelect: vi.fn(), onLayout: vi.fn() };
    const view = renderView(
      <ChangesView
        changes={[
          { status: 'ADDED', path: 'NOTES.md' },
          { status: 'UPDATED', path: 'src/app.py' },
          { status: 'DELETED', path: 'old.txt' },
        ]}
        selected={undefined}
        layout="unified"
        diff={undefined}
        diffState={<p>loading the diff</p>}
        {...callbacks}
        {...props}
      />,
    );
    return { ...view, ...callbacks };
  };

  it('lists each changed file with what happened to it, and asks for one to be chosen', async () => {
    const { user, onSelect } = setup();
    const files = screen.getByRole('navigation', { name: 'Changed files' });
    expect(within(files).getByRole('button', { name: /NOTES\.md/ })).toHaveTextContent('Added');
    expect(within(files).getByRole('button', { name: /src\/app\.py/ })).toHaveTextContent('Modified');
    expect(within(files).getByRole('button', { name: /old\.txt/ })).toHaveTextContent('Deleted');
    expect(screen.getByText('Choose a file to see what changed in it.')).toBeInTheDocument();
    await user.click(within(files).getByRole('button', { name: /src\/app\.py/ }));
    expect(onSelect).toHaveBeenCalledWith('src/app.py');
  });

  it("shows the chosen file's diff in the layout asked for, or what stands in for it while it loads", async () => {
    const { unmount } = setup({ selected: 'src/app.py' });
    expect(screen.getByText('loading the diff')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /src\/app\.py/ })).toHaveAttribute('aria-current', 'true');
    unmount();
    setup({ selected: 'src/app.py', layout: 'split', diff: { original: 'print(1)\n', modified: 'print(2)\n' } });
    const diff = await screen.findByRole('figure', { name: 'Diff of src/app.py' });
    expect(diff.querySelector('table.diff-split')).not.toBeNull();
    expect(within(diff).getByText('print(2)')).toBeInTheDocument();
  });

  it('says when nothing changed yet', () => {
    setup({ changes: [] });
    expect(screen.getByText('No changes in the workspace yet.')).toBeInTheDocument();
  });
});

describe('FilesView', () => {
  const listing: DirectoryListing = {
    path: '/home/s/workspace/src',
    truncated: false,
    entries: [
      { name: 'lib', type: 'directory', size: null, modified_at: '2026-11-29T05:00:00.000Z' },
      { name: 'app.py', type: 'file', size: 2048, modified_at: '2026-11-29T05:00:00.000Z' },
    ],
  };
  const setup = (props: Partial<FilesViewProps> = {}) => {
    const callbacks = { onOpenDir: vi.fn(), onOpenFile: vi.fn(), onDownloadFile: vi.fn(), onDownloadArchive: vi.fn() };
    const view = renderView(
      <FilesView
        dir="src"
        listing={listing}
        file={undefined}
        content={undefined}
        contentState={null}
        archiving={false}
        {...callbacks}
        {...props}
      />,
    );
    return { ...view, ...callbacks };
  };

  it('lists a folder, folders first, with sizes; a folder and the breadcrumb open folders, a file opens itself', async () => {
    const { user, onOpenDir, onOpenFile, onDownloadArchive } = setup();
    const table = screen.getByRole('table', { name: 'Files' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('lib');
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('app.py2.0 KB');
    await user.click(within(table).getByRole('button', { name: /lib/ }));
    expect(onOpenDir).toHaveBeenCalledWith('src/lib');
    await user.click(within(table).getByRole('button', { name: /app\.py/ }));
    expect(onOpenFile).toHaveBeenCalledWith('src/app.py');
    await user.click(within(screen.getByRole('navigation', { name: 'Folder' })).getByRole('button', { name: 'workspace' }));
    expect(onOpenDir).toHaveBeenCalledWith('');
    await user.click(screen.getByRole('button', { name: 'Download workspace (.tar.gz)' }));
    expect(onDownloadArchive).toHaveBeenCalled();
  });

  it('shows a text file, offers a download, and says when a file is not shown', async () => {
    const { user, onDownloadFile, unmount } = setup({ file: 'src/app.py', content: { kind: 'text', text: 'print(2)\n' } });
    const shown = screen.getByRole('region', { name: 'File src/app.py' });
    expect(within(shown).getByText('print(2)')).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Download' }));
    expect(onDownloadFile).toHaveBeenCalledWith('src/app.py');
    unmount();
    setup({ file: 'src/app.py', content: { kind: 'binary', size: 2048 } });
    expect(screen.getByText(/Not a text file \(2\.0 KB\): download it to open it\./)).toBeInTheDocument();
  });
});
