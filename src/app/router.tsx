import { createBrowserRouter, Navigate } from 'react-router';
import { SignOutRoute } from '../features/auth/sign-out-route';
import { Layout } from './layout';
import { PageSkeleton } from './page-skeleton';
import { NotFound, RouteError } from './route-error';

/**
 * Pages load on demand, so each route only downloads its own code. A page that fails (its code
 * could not be fetched, say) fails inside the layout: the shell and navigation stay.
 */
export function createRouter() {
  return createBrowserRouter([
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
  ]);
}
