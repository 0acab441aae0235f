import { Skeleton } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from './load-error';

interface LoadedContentProps<T> {
  data: T | undefined;
  /** Why the last load failed, if it did. */
  error: unknown;
  onRetry: () => void;
  /** What is loading, for the error ("Could not load …") and the skeleton's label. */
  what: string;
  skeleton?: ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * The data once there is some, else the load error with a retry, else a skeleton. Data comes
 * first: a failed background refresh must not take away what is on screen (or a form's edits).
 */
export function LoadedContent<T>({ data, error, onRetry, what, skeleton, children }: LoadedContentProps<T>) {
  if (data !== undefined) return children(data);
  if (error) return <LoadError what={what} error={error} onRetry={onRetry} />;
  return skeleton ?? <Skeleton height={160} radius="md" role="status" aria-label={`Loading ${what}`} />;
}

/** `LoadedContent` for a query. */
export function QueryContent<T>({
  query,
  ...props
}: Omit<LoadedContentProps<T>, 'data' | 'error' | 'onRetry'> & { query: UseQueryResult<T> }) {
  return <LoadedContent data={query.data} error={query.error} onRetry={() => void query.refetch()} {...props} />;
}
