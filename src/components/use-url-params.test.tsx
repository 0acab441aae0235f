import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUrlParams } from './use-url-params';

const inRouter =
  (url: string) =>
  ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;

describe('useUrlParams', () => {
  it('changes the parameters it names and keeps the others', () => {
    const { result } = renderHook(() => useUrlParams<'status' | 'spec'>(), { wrapper: inRouter('/sandboxes?status=PAUSED&logs=s1') });
    act(() => result.current[1]({ status: undefined, spec: 'agent-server' }));
    expect(result.current[0].toString()).toBe('logs=s1&spec=agent-server');
  });

  it('keeps the first of two changes made before the page rendered the first', () => {
    const { result } = renderHook(() => useUrlParams<'status' | 'spec'>(), { wrapper: inRouter('/sandboxes?status=PAUSED') });
    const [, update] = result.current;
    act(() => {
      update({ status: undefined });
      update({ spec: 'agent-server' });
    });
    expect(result.current[0].toString()).toBe('spec=agent-server');
  });

  it('computes changes from the parameters as last written', () => {
    const { result } = renderHook(() => useUrlParams<'q'>(), { wrapper: inRouter('/conversations?q=a') });
    const [, update] = result.current;
    act(() => {
      update((current) => ({ q: `${current.get('q')}b` }));
      update((current) => ({ q: `${current.get('q')}c` }));
    });
    expect(result.current[0].get('q')).toBe('abc');
    // Rendered since: the next change starts from what the page shows.
    act(() => result.current[1]((current) => ({ q: `${current.get('q')}d` })));
    expect(result.current[0].get('q')).toBe('abcd');
  });
});
