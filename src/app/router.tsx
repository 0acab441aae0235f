import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunctionArgs, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { getSession } from '../api/session';
import { type CatalogLoader, withCatalog } from '../i18n/catalogs';
import { SignOutRoute } from '../features/auth/sign-out-route';
import { prefetch as prefetchSettings } from '../features/settings/prefetch';
import { Layout } from './layout';
import { HOME, type LayoutName, PAGE_NAMES, type PageName, PAGES } from './pages';
import { PageSkeleton } from './page-skeleton';
import { NotFound, RouteError } from './route-error';

type Prefetch = (queryClient: QueryClient, url: URL) => unknown;

/** Asks for a page's first data; the page finds it in the query cache. */
function startPrefetch(queryClient: QueryClient, prefetch: Prefetch, url: URL): void {
  if (getSession()) prefetch(queryClient, url);
}

/**
 * A page whose data is asked for beside its code, not once the code has loaded and rendered.
 * Navigation never waits for it (the loader returns at once).
 */
const prefetched = (queryClient: QueryClient, prefetch: Prefetch) => ({
  handle: { prefetch },
  loader: ({ request }: LoaderFunctionArgs) => {
    startPrefetch(queryClient, prefetch, new URL(request.url));
    return null;
  },
});

/** A page's module: its component, and the catalog of its strings. */
interface PageModule {
  Page: ComponentType;
  catalog: CatalogLoader;
}

/** Each page, loaded on demand (its module in pages.ts). */
const LOAD_PAGE: Record<PageName, () => Promise<PageModule>> = {
  settings: () => import('../features/settings/settings-page'),
  mcp: () => import('../features/mcp-servers/mcp-servers-page'),
  apiKeys: () => import('../features/api-keys/api-keys-page'),
  teamDefaults: () => import('../features/team-defaults/team-defaults-page'),
  git: () => import('../features/git-secrets/git-secrets-page'),
  conversations: () => import('../features/conversations/list/conversations-page'),
  conversation: () => import('../features/conversations/detail/conversation-page'),
  sandboxes: () => import('../features/sandboxes/sandboxes-page'),
  specs: () => import('../features/sandboxes/specs-page'),
  users: () => import('../features/users/users-page'),
  audit: () => import('../features/audit/audit-page'),
  usage: () => import('../features/usage/usage-page'),
};

const LAYOUT_COMPONENTS: Record<LayoutName, () => Promise<ComponentType>> = {
  settings: async () => (await import('./settings-layout')).SettingsLayout,
};

/** The pages whose first data is asked for beside their code. */
const PREFETCH: Partial<Record<PageName, Prefetch>> = {
  settings: prefetchSettings,
  // Its filters and queries would weigh on every page's entry: loaded beside the page's code.
  // Should it not load, the page's own import fails and says so.
  conversations: (client, url) =>
    import('../features/conversations/list/prefetch').then(
      (module) => module.prefetch(client, url),
      () => undefined,
    ),
};

/**
 * Pages load on demand, so each route only downloads its own code (the HTML the server sends for
 * a URL preloads it: scripts/page-preloads.ts reads what each URL loads from pages.ts). A page
 * that fails (its code could not be fetched, say) fails inside the layout: the shell and
 * navigation stay.
 */
export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createRouter(queryClient: QueryClient): AppRouter {
  const pageRoute = (name: PageName): RouteObject => {
    const prefetch = PREFETCH[name];
    return {
      path: PAGES[name].path,
      ...(prefetch && prefetched(queryClient, prefetch)),
      lazy: async () => {
        const { Page } = await withCatalog(LOAD_PAGE[name]());
        return { Component: Page };
      },
    };
  };
  const routes: RouteObject[] = [
    {
      element: <Layout />,
      errorElement: <RouteError />,
      HydrateFallback: PageSkeleton,
      children: [
        {
          errorElement: <RouteError />,
          children: [
            { index: true, element: <Navigate to={PAGES[HOME].path} replace /> },
            ...Object.entries(LAYOUT_COMPONENTS).map(([layout, component]) => ({
              lazy: async () => ({ Component: await component() }),
              children: PAGE_NAMES.filter((name) => PAGES[name].layout === layout).map(pageRoute),
            })),
            ...PAGE_NAMES.filter((name) => PAGES[name].layout === undefined).map(pageRoute),
            { path: 'sign-out', element: <SignOutRoute /> },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ];
  // The router asks for the first page's code before it runs loaders, and HTTP/1.1's six
  // connections serve requests in turn: the first page's data is asked for ahead of its code.
  // (Its loader asks again, served from the query cache.)
  const first = matchRoutes(routes, window.location)?.findLast((match) => match.route.handle?.prefetch)?.route;
  if (first) startPrefetch(queryClient, (first.handle as { prefetch: Prefetch }).prefetch, new URL(window.location.href));
  return createBrowserRouter(routes);
}
