import type { QueryClient } from '@tanstack/react-query';
import { settingsQuery } from '../../queries/settings';

/** The stored settings, asked for while the page's code loads (see src/app/router.tsx). */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(settingsQuery());
}
