import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type LoaderFunctionArgs, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { getSession } from '../api/session';
import { SignOutRoute } from '../features/auth/sign-out-route';
import { Layout } from './layout';
import { PageSkeleton } from './page-skeleton';
import { NotFound, RouteError } from './route-error';

type PrefetchModule = () => Promise<{ prefetch: (queryClient: QueryClient, url: URL) => void }>;

/** Asks for a page's first data; the page finds it in the query cache. A module that fails to load fails the page's own import, which says so. */
function startPrefetch(queryClient: QueryClient, load: PrefetchModule, url: URL): void {
  if (getSession())
    load().then(
      (module) => module.prefetch(queryClient, url),
      () => undefined,
    );
}

/**
 * A page whose data is asked for beside its code, not once the code has loaded and rendered.
 * Navigation never waits for it (the loader answers at once).
 */
const prefetched = (queryClient: QueryClient, load: PrefetchModule) => ({
  handle: { prefetch: load },
  loader: ({ request }: LoaderFunctionArgs) => {
    startPrefetch(queryClient, load, new URL(request.url));
    return null;
  },
});

/**
 * Pages load on demand, so each route only downloads its own code (the HTML the server sends for
 * a URL preloads it: scripts/page-preloads.ts lists what each URL loads here). A page that fails
 * (its code could not be fetched, say) fails inside the layout: the shell and navigation stay.
 */
export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createRouter(queryClient: QueryClient): AppRouter {
  const routes: RouteObject[] = [
    {
      element: <Layout />,
      errorElement: <RouteError />,
      HydrateFallback: PageSkeleton,
      children: [
        {
          errorElement: <RouteError />,
          children: [
            { index: true, element: <Navigate to="/settings" replace /> },
            {
              path: 'settings',
              lazy: async () => ({ Component: (await import('./settings-layout')).SettingsLayout }),
              children: [
                {
                  index: true,
                  ...prefetched(queryClient, () => import('../features/settings/prefetch')),
                  lazy: async () => ({ Component: (await import('../features/settings/settings-page')).SettingsPage }),
                },
                {
                  path: 'mcp',
                  lazy: async () => ({ Component: (await import('../features/mcp-servers/mcp-servers-page')).McpServersPage }),
                },
              ],
            },
            {
              path: 'git',
              lazy: async () => ({ Component: (await import('../features/git-secrets/git-secrets-page')).GitSecretsPage }),
            },
            {
              path: 'conversations',
              ...prefetched(queryClient, () => import('../features/conversations/prefetch')),
              lazy: async () => ({ Component: (await import('../features/conversations/conversations-page')).ConversationsPage }),
            },
            {
              path: 'conversations/:conversationId',
              lazy: async () => ({ Component: (await import('../features/conversations/conversation-page')).ConversationPage }),
            },
            {
              path: 'sandboxes',
              lazy: async () => ({ Component: (await import('../features/sandboxes/sandboxes-page')).SandboxesPage }),
            },
            {
              path: 'sandbox-specs',
              lazy: async () => ({ Component: (await import('../features/sandboxes/specs-page')).SandboxSpecsPage }),
            },
            { path: 'sign-out', element: <SignOutRoute /> },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ];
  // The router asks for the first page's code before it runs loaders, and HTTP/1.1's six
  // connections serve requests in turn: the first page's data is asked for ahead of its code.
  // (Its loader asks again, answered from the query cache.)
  const first = matchRoutes(routes, window.location)?.findLast((match) => match.route.handle?.prefetch)?.route;
  if (first) startPrefetch(queryClient, (first.handle as { prefetch: PrefetchModule }).prefetch, new URL(window.location.href));
  return createBrowserRouter(routes);
}
