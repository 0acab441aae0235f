import { fireEvent, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Usage } from '../../contract/usage';
import { renderView } from '../../testing/render';
import { UsageView, type UsageViewProps } from './usage-view';

const figures = { calls: 0, prompt_tokens: 0, completion_tokens: 0, cache_read_tokens: 0, cost: 0, sandbox_seconds: 0, conversations: 0 };

const usage: Usage = {
  from: '2026-03-01',
  to: '2026-03-02',
  user_id: null,
  days: [
    {
      day: '2026-03-01',
      ...figures,
      calls: 2,
      prompt_tokens: 1000,
      completion_tokens: 200,
      cost: 1.5,
      sandbox_seconds: 7200,
      conversations: 1,
    },
    { day: '2026-03-02', ...figures },
  ],
  totals: { ...figures, calls: 2, prompt_tokens: 1000, completion_tokens: 200, cost: 1.5, sandbox_seconds: 7200, conversations: 1 },
  users: [
    {
      user_id: 'u1',
      name: 'Ada',
      email: 'ada@example.com',
      ...figures,
      calls: 2,
      prompt_tokens: 1000,
      completion_tokens: 200,
      cost: 1.5,
      sandbox_seconds: 7200,
      conversations: 1,
      month_cost: 9,
      monthly_cost_limit: 10,
    },
    { user_id: 'u2', name: null, email: 'bo@example.com', ...figures, month_cost: 0, monthly_cost_limit: null },
  ],
  models: [{ model: 'gpt-4o', calls: 2, prompt_tokens: 1000, completion_tokens: 200, cache_read_tokens: 0, cost: 1.5 }],
  runtimes: [{ runtime: 'process', sandbox_seconds: 7200 }],
  by_user_day: [
    { day: '2026-03-01', user_id: 'u1', cost: 1.5, tokens: 1200, sandbox_seconds: 7200 },
    { day: '2026-03-02', user_id: 'u2', cost: 0, tokens: 0, sandbox_seconds: 60 },
  ],
  by_model_day: [{ day: '2026-03-01', model: 'gpt-4o', cost: 1.5, tokens: 1200 }],
};

const view = (props: Partial<UsageViewProps> = {}) =>
  renderView(
    <UsageView
      usage={usage}
      everyone
      userId={undefined}
      onRange={vi.fn()}
      onUser={vi.fn()}
      onExport={vi.fn()}
      exporting={false}
      today="2026-03-10"
      {...props}
    />,
  );

describe('UsageView', () => {
  // The charts are loaded on demand: loaded once here, so no test waits on a busy machine's import.
  beforeAll(() => import('./usage-charts'));

  it('shows the totals, each user with their budget, and each model', () => {
    view();
    expect(screen.getByLabelText('Cost')).toHaveTextContent('$1.50');
    expect(screen.getByLabelText('Tokens')).toHaveTextContent('1,200');
    expect(screen.getByLabelText('Sandbox hours')).toHaveTextContent('2');
    const users = within(screen.getByRole('table', { name: 'Usage by user' }));
    const ada = users.getByRole('row', { name: /Ada/ });
    expect(ada).toHaveTextContent('$9.00 of $10.00 this month');
    expect(within(ada).getByRole('progressbar', { name: 'Monthly budget used' })).toHaveAttribute('aria-valuenow', '90');
    expect(users.getByRole('row', { name: /bo@example.com/ })).toHaveTextContent('$0.00 this month, no limit');
    expect(within(screen.getByRole('table', { name: 'Usage by model' })).getByRole('row', { name: /gpt-4o/ })).toHaveTextContent('$1.50');
  });

  it('sets the range from a preset or the dates, and asks for the CSV', () => {
    const onRange = vi.fn();
    const onExport = vi.fn();
    view({ onRange, onExport });
    fireEvent.click(screen.getByRole('button', { name: '7 days' }));
    expect(onRange).toHaveBeenLastCalledWith({ from: '2026-03-04', to: '2026-03-10' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-02-15' } });
    expect(onRange).toHaveBeenLastCalledWith({ from: '2026-02-15', to: '2026-03-02' });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(onExport).toHaveBeenCalled();
  });

  it('offers a member no choice of user', () => {
    view({ everyone: false });
    expect(screen.queryByLabelText('User')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Your usage' })).toBeInTheDocument();
  });

  it('says what each chart shows in words', async () => {
    view();
    expect(await screen.findByRole('figure', { name: 'Cost per day' })).toHaveAccessibleDescription(
      'Total: $1.50. Highest on Mar 1: $1.50.',
    );
    expect(screen.getByRole('figure', { name: 'Tokens per day' })).toHaveAccessibleDescription(
      'Total: Input tokens: 1,000, Output tokens: 200. Highest on Mar 1: 1,200.',
    );
    // Bo called no LLM: not named.
    expect(screen.getByRole('figure', { name: 'Cost per day by user' })).toHaveAccessibleDescription(
      'Total: Ada: $1.50. Highest on Mar 1: $1.50.',
    );
    expect(screen.getByRole('figure', { name: 'Sandbox hours per day' })).toHaveAccessibleDescription('Total: 2. Highest on Mar 1: 2.');
  });

  it('says so where no LLM was called, in place of a chart', async () => {
    view({ usage: { ...usage, by_model_day: [] } });
    const byModel = await screen.findByRole('figure', { name: 'Cost per day by model' });
    expect(byModel).toHaveAccessibleDescription('No LLM calls in this range.');
    // Its title and that sentence, no chart.
    expect(byModel.children).toHaveLength(2);
  });
});
