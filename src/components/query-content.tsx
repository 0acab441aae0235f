import { Skeleton } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from './load-error';

interface QueryContentProps<T> {
  query: UseQueryResult<T>;
  /** What is loading, for the error ("Could not load …") and the skeleton's label. */
  what: string;
  skeleton?: ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * The data once there is some, else the load error with a retry, else a skeleton. Data comes
 * first: a failed background refresh must not take away what is on screen (or a form's edits).
 */
export function QueryContent<T>({ query, what, skeleton, children }: QueryContentProps<T>) {
  if (query.data !== undefined) return children(query.data);
  if (query.isError) return <LoadError what={what} error={query.error} onRetry={() => void query.refetch()} />;
  return skeleton ?? <Skeleton height={160} radius="md" aria-label={`Loading ${what}`} />;
}
