import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderView } from '../testing/render';
import { QueryContent } from './query-content';

/** A query whose results come from `results`, one per fetch: a value, or an Error to throw. */
function Harness({ results }: { results: (string | Error)[] }) {
  const query = useQuery({
    queryKey: ['results'],
    queryFn: () => {
      const next = results.shift() ?? new Error('no more results');
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return (
    <>
      <QueryContent query={query} what="things">
        {(data) => <p>Data: {data}</p>}
      </QueryContent>
      <button onClick={() => void query.refetch()}>Refresh</button>
      <output data-testid="status">{query.status}</output>
    </>
  );
}

function setup(results: (string | Error)[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderView(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <Harness results={results} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return userEvent.setup();
}

describe('QueryContent', () => {
  it('shows a skeleton, then the data', async () => {
    setup(['one']);
    expect(screen.getByLabelText('Loading things')).toBeInTheDocument();
    expect(await screen.findByText('Data: one')).toBeInTheDocument();
  });

  it('shows a failed first load with a retry that loads the data', async () => {
    const user = setup([new Error('server down'), 'two']);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load things');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Data: two')).toBeInTheDocument();
  });

  it('keeps the data on screen when a refresh fails', async () => {
    const user = setup(['one', new Error('server down')]);
    await screen.findByText('Data: one');
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('error'));
    expect(screen.getByText('Data: one')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
