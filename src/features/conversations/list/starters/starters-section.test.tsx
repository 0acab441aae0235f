import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTask } from '../../../../testing/conversations';
import { fakeApi, json, testQueryClient } from '../../../../testing/fake-api';
import { renderWithQueries } from '../../../../testing/render';
import { estimateOf, issueTask, suggestedTask } from './fixtures';
import { StartersSection } from './starters-section';
import { taskStartRequest } from './task-start';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The server: the suggested tasks, a start that answers with its first state, and the estimate. */
const server = (solvability: () => Response = () => json(200, estimateOf())) =>
  fakeApi({
    'GET /api/user/suggested-tasks': () => json(200, [suggestedTask(), issueTask]),
    'POST /api/v1/app-conversations/stream-start': () => json(200, [startTask('WORKING', { id: 's1' })]),
    'POST /api/user/solvability': solvability,
  });

const starts = (api: ReturnType<typeof fakeApi>) =>
  api.requests.filter((request) => request.url === '/api/v1/app-conversations/stream-start').map((request) => request.body);

describe('StartersSection', () => {
  it("starts a pull request's task in one click: its prompt, repository and branch", async () => {
    const api = server();
    const onStarted = vi.fn();
    const { user } = renderWithQueries(<StartersSection suggestions solvability={false} onStarted={onStarted} />, testQueryClient());
    await user.click(await screen.findByRole('button', { name: /^Fix failing checks: Faster engine/ }));
    await vi.waitFor(() => expect(onStarted).toHaveBeenCalledWith(expect.objectContaining({ id: 's1' })));
    expect(starts(api)).toEqual([taskStartRequest(suggestedTask())]);
    // Without the estimate, an issue starts in one click too.
    await user.click(screen.getByRole('button', { name: /^Fix issue: Punch cards/ }));
    await vi.waitFor(() => expect(starts(api)).toHaveLength(2));
    expect(api.requests.some((request) => request.url === '/api/user/solvability')).toBe(false);
  });

  it("shows an issue's estimate before it starts, and starts it on request", async () => {
    const api = server();
    const onStarted = vi.fn();
    const { user } = renderWithQueries(<StartersSection suggestions solvability onStarted={onStarted} />, testQueryClient());
    await user.click(await screen.findByRole('button', { name: /^Fix issue: Punch cards/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Start from an issue' });
    expect(await within(dialog).findByRole('region', { name: 'Solvability estimate' })).toHaveTextContent('Likely solvable');
    expect(api.requests.find((request) => request.url === '/api/user/solvability')?.body).toEqual({
      git_provider: 'github',
      repo: 'ada/engine',
      issue_number: 4,
    });
    expect(starts(api)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Start conversation' }));
    await vi.waitFor(() => expect(onStarted).toHaveBeenCalled());
    expect(starts(api)).toEqual([taskStartRequest(issueTask)]);
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("estimates a pasted issue's address, says why when the server refuses it, and checks it is an address first", async () => {
    const detail = [
      {
        type: 'value_error',
        loc: ['body', 'issue_url'],
        msg: 'Value error, Expected the address of an issue on GitHub as connected under Settings → Git',
        input: 'x',
      },
    ];
    const api = server(() => json(422, { detail }));
    const { user } = renderWithQueries(<StartersSection suggestions={false} solvability onStarted={vi.fn()} />, testQueryClient());
    const field = screen.getByRole('textbox', { name: /Start from an issue/ });
    await user.type(field, 'issue four{Enter}');
    expect(field).toHaveAccessibleDescription(/Paste an issue's address, such as https:\/\/github.com\/owner\/repo\/issues\/1/);
    await user.clear(field);
    await user.type(field, 'https://gitlab.example/navy/cobol/-/issues/3{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Start from an issue' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Expected the address of an issue on GitHub');
    expect(api.requests.find((request) => request.url === '/api/user/solvability')?.body).toEqual({
      issue_url: 'https://gitlab.example/navy/cobol/-/issues/3',
    });
    expect(within(dialog).getByRole('button', { name: 'Start conversation' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Suggested tasks' })).toBeNull();
  });
});
