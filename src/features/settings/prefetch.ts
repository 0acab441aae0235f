import type { QueryClient } from '@tanstack/react-query';
import { OPTION_KINDS } from '../../contract/options';
import { optionsQuery } from '../../queries/options';
import { settingsQuery } from '../../queries/settings';

/**
 * The stored settings and the server's choices, asked for while the page's code loads (see
 * src/app/router.tsx): choices that came after the first render would render the whole form again.
 */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(settingsQuery());
  for (const kind of OPTION_KINDS) void queryClient.prefetchQuery(optionsQuery(kind));
}
