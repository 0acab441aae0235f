import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../api/errors';
import { renderView } from '../../../../testing/render';
import { estimateOf, issueTask } from './fixtures';
import { SolvabilityView } from './solvability-view';

const base = { task: issueTask, estimate: undefined, error: null, onStart: vi.fn(), onCancel: vi.fn(), starting: false };

describe('SolvabilityView', () => {
  it('shows the verdict, its score, the summary and both kinds of feedback; Start starts the issue', async () => {
    const onStart = vi.fn();
    const { user } = renderView(<SolvabilityView {...base} estimate={estimateOf()} onStart={onStart} />);
    expect(screen.getByRole('link', { name: '#4 Punch cards jam in the reader' })).toHaveAttribute(
      'href',
      'https://github.com/ada/engine/issues/4',
    );
    expect(screen.getByText('ada/engine · starts on main')).toBeInTheDocument();
    const estimate = screen.getByRole('region', { name: 'Solvability estimate' });
    expect(estimate).toHaveTextContent('Likely solvable');
    expect(estimate).toHaveTextContent('Solvability EASY · 82%');
    expect(estimate).toHaveTextContent('The jam is reproducible with one card.');
    expect(
      within(estimate)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Attach the card that jams', 'Clear steps to reproduce', 'Expected and actual behaviour']);
    expect(estimate).toHaveTextContent('Estimated by stub-model');
    await user.click(screen.getByRole('button', { name: 'Start conversation' }));
    expect(onStart).toHaveBeenCalledWith(issueTask);
  });

  it.each([
    [0.5, 'MEDIUM', 'May be solvable'],
    [0.1, 'HARD', 'Hard to solve'],
  ] as const)('words a score of %s (%s)', (score, difficulty, words) => {
    renderView(<SolvabilityView {...base} estimate={estimateOf({ score, difficulty, actionable_feedback: [], positive_feedback: [] })} />);
    expect(screen.getByRole('region', { name: 'Solvability estimate' })).toHaveTextContent(words);
    expect(screen.queryByText('What would make it easier')).toBeNull();
  });

  it('says the LLM is reading while it does; a suggested issue can start meanwhile', () => {
    renderView(<SolvabilityView {...base} />);
    expect(screen.getByRole('status')).toHaveTextContent('Your LLM is reading the issue…');
    expect(screen.getByRole('button', { name: 'Start conversation' })).toBeEnabled();
  });

  it('says why there is no estimate; a pasted address without one cannot start, as its issue is not known', () => {
    const error = new ApiError('No LLM is set up: choose a model and its key under Settings › LLM to estimate solvability', 'http', 409);
    const suggested = renderView(<SolvabilityView {...base} error={error} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Could not estimate solvability');
    expect(screen.getByRole('alert')).toHaveTextContent('No LLM is set up');
    expect(screen.getByRole('button', { name: 'Start conversation' })).toBeEnabled();
    suggested.unmount();
    renderView(<SolvabilityView {...base} task={undefined} issueUrl="https://github.com/ada/engine/issues/4" error={error} />);
    expect(screen.getByText('https://github.com/ada/engine/issues/4')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start conversation' })).toBeDisabled();
  });

  it('shows a refused start, and waits while one is under way', () => {
    renderView(
      <SolvabilityView {...base} estimate={estimateOf()} starting startError={new ApiError('Sandbox limit reached', 'http', 409)} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Not started');
    expect(screen.getByRole('button', { name: 'Start conversation' })).toHaveAttribute('data-loading', 'true');
  });
});
