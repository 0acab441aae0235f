import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../api/errors';
import { renderView } from '../../../../testing/render';
import { issueTask, suggestedTask } from './fixtures';
import { SuggestedTasksView } from './suggested-tasks-view';

const view = (props: Partial<Parameters<typeof SuggestedTasksView>[0]> = {}) =>
  renderView(<SuggestedTasksView tasks={undefined} error={null} onRetry={vi.fn()} onStart={vi.fn()} {...props} />);

describe('SuggestedTasksView', () => {
  it('groups the tasks by repository, each a button that says what it does and where, with a link to its page', async () => {
    const onStart = vi.fn();
    const notes = suggestedTask({
      task_type: 'UNRESOLVED_COMMENTS',
      repo: 'lovelace-org/notes',
      issue_number: 3,
      title: 'Translate',
      branch: 'translation',
      url: null,
    });
    const { user } = view({ tasks: [suggestedTask(), notes, issueTask], onStart });
    const section = screen.getByRole('region', { name: 'Suggested tasks' });
    expect(
      within(section)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['ada/engine', 'lovelace-org/notes']);
    const fix = screen.getByRole('button', { name: /^Fix failing checks: Faster engine/ });
    expect(fix).toHaveTextContent('#12 · on feature/fast-engine');
    expect(screen.getByRole('link', { name: 'Open #12 on GitHub' })).toHaveAttribute('href', 'https://github.com/ada/engine/pull/12');
    expect(screen.queryByRole('link', { name: 'Open #3 on GitHub' })).toBeNull();
    // By keyboard: from a task to its link, then to the next task of its repository; Enter starts it.
    fix.focus();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Open #12 on GitHub' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: /^Fix issue: Punch cards jam in the reader/ })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onStart).toHaveBeenCalledWith(issueTask);
    await user.click(fix);
    expect(onStart).toHaveBeenLastCalledWith(suggestedTask());
  });

  it('shows five at first, and all of them on request', async () => {
    const tasks = Array.from({ length: 7 }, (_, n) => suggestedTask({ issue_number: n + 1, title: `Task ${n + 1}` }));
    const { user } = view({ tasks });
    expect(screen.getAllByRole('listitem')).toHaveLength(5);
    await user.click(screen.getByRole('button', { name: 'Show all 7 tasks' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(7);
    expect(screen.getByRole('button', { name: 'Show fewer' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('while one starts, it waits and the others cannot start', () => {
    const other = suggestedTask({ issue_number: 13, title: 'Other' });
    view({ tasks: [suggestedTask(), other], starting: 'github:ada/engine:FAILING_CHECKS:12' });
    expect(screen.getByRole('button', { name: /Faster engine/ })).toHaveAttribute('data-loading', 'true');
    expect(screen.getByRole('button', { name: /Other/ })).toBeDisabled();
  });

  it("says an issue's button opens its estimate first when issues are estimated", () => {
    view({ tasks: [suggestedTask(), issueTask], estimateIssues: true });
    expect(screen.getByRole('button', { name: /Punch cards/ })).toHaveAttribute('aria-haspopup', 'dialog');
    expect(screen.getByRole('button', { name: /Faster engine/ })).not.toHaveAttribute('aria-haspopup');
  });

  it('says it is loading, that nothing needs the user, or why the tasks could not be had, with a retry', async () => {
    const loading = view();
    expect(screen.getByRole('status', { name: 'Loading suggested tasks' })).toBeInTheDocument();
    loading.unmount();
    const empty = view({ tasks: [] });
    expect(screen.getByText(/^Nothing needs you now/)).toBeInTheDocument();
    empty.unmount();
    const onRetry = vi.fn();
    const { user } = view({
      error: new ApiError('GitHub refused the stored token (HTTP 401): connect a new one under Settings → Git', 'http', 409),
      onRetry,
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Could not load suggested tasks');
    expect(alert).toHaveTextContent('GitHub refused the stored token');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalled();
  });
});
