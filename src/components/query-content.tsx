import { useLingui } from '@lingui/react/macro';
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
  /** What shows while it loads: a skeleton of `skeletonHeight` px unless given. */
  skeleton?: ReactNode;
  skeletonHeight?: number;
  children: (data: T) => ReactNode;
}

/** A placeholder block announced as "Loading …" (a role, so its label is allowed and read). */
export function LoadingSkeleton({ what, height = 160 }: { what: string; height?: number }) {
  const { t } = useLingui();
  return <Skeleton height={height} radius="md" role="status" aria-label={t`Loading ${what}`} />;
}

/**
 * The data once there is some, else the load error with a retry, else a skeleton. Data comes
 * first: a failed background refresh must not take away what is on screen (or a form's edits).
 */
export function LoadedContent<T>({ data, error, onRetry, what, skeleton, skeletonHeight, children }: LoadedContentProps<T>) {
  if (data !== undefined) return children(data);
  if (error) return <LoadError what={what} error={error} onRetry={onRetry} />;
  return skeleton ?? <LoadingSkeleton what={what} height={skeletonHeight} />;
}

/** `LoadedContent` for a query. */
export function QueryContent<T>({
  query,
  ...props
}: Omit<LoadedContentProps<T>, 'data' | 'error' | 'onRetry'> & { query: UseQueryResult<T> }) {
  return <LoadedContent data={query.data} error={query.error} onRetry={() => void query.refetch()} {...props} />;
}
