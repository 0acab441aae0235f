import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { RouterProvider } from 'react-router';
import { useSessionState } from '../features/auth/use-session';
import { withCatalog } from '../i18n/catalogs';
import { AppProviders } from './providers';
import type { AppRouter } from './router';

/**
 * Cached data belongs to one server: it goes on sign-out and when another server is chosen, and
 * what failed is asked for again when the user is back after an expiry. Nothing happens while the
 * session stays as it was: the page's first data, asked for before the first render, stays cached.
 */
function useCacheFollowsSession(baseUrl: string | undefined, expired: boolean) {
  const queryClient = useQueryClient();
  const cachedFrom = useRef<string | undefined>(baseUrl);
  const previous = useRef<string | undefined>(baseUrl);
  useEffect(() => {
    const before = previous.current;
    previous.current = baseUrl;
    if (baseUrl === undefined) {
      if (!expired) {
        queryClient.clear();
        cachedFrom.current = undefined;
      }
      return;
    }
    if (before === baseUrl) return;
    if (cachedFrom.current !== undefined && cachedFrom.current !== baseUrl) queryClient.clear();
    else void queryClient.invalidateQueries(); // back after an expiry: refresh what failed
    cachedFrom.current = baseUrl;
  }, [baseUrl, expired, queryClient]);
}

/** Loaded when shown: only an invitation link leads there. */
const JoinPage = lazy(async () => ({ default: (await withCatalog(import('../features/auth/join-screen'))).JoinPage }));

/**
 * The sign-in screens, loaded when shown. A signed-in tab fetches them once it is idle: should
 * the session end after the server was updated (and their old files gone), they are at hand.
 */
const signInScreens = () => withCatalog(import('../features/auth/sign-in-screen'));
const SignInPage = lazy(async () => ({ default: (await signInScreens()).SignInPage }));
const SessionExpiredDialog = lazy(async () => ({ default: (await signInScreens()).SessionExpiredDialog }));

function useSignInScreensAtHand(signedIn: boolean) {
  useEffect(() => {
    if (!signedIn) return;
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1000));
    idle(() => void signInScreens().catch(() => undefined));
  }, [signedIn]);
}

/** Where an invitation link leads: shown signed in or not (whoever follows it becomes the invited person). */
const JOIN_PATH = '/join';

function SessionGate({ router }: { router: AppRouter }) {
  const { session, expired } = useSessionState();
  const [joining, setJoining] = useState(() => window.location.pathname === JOIN_PATH);
  useCacheFollowsSession(session?.baseUrl, expired !== null);
  useSignInScreensAtHand(session !== undefined);

  if (joining) {
    return (
      <Suspense fallback={null}>
        <JoinPage
          onJoined={() => {
            setJoining(false);
            void router.navigate('/', { replace: true });
          }}
        />
      </Suspense>
    );
  }
  if (!session && !expired) {
    return (
      <Suspense fallback={null}>
        <SignInPage />
      </Suspense>
    );
  }
  // One tree shape whether or not the dialog shows, so the page under it stays mounted.
  return (
    <>
      <RouterProvider router={router} />
      {!session && expired && (
        <Suspense fallback={null}>
          <SessionExpiredDialog baseUrl={expired.baseUrl} />
        </Suspense>
      )}
    </>
  );
}

export function App({ queryClient, router }: { queryClient: QueryClient; router: AppRouter }) {
  return (
    <AppProviders queryClient={queryClient}>
      <SessionGate router={router} />
    </AppProviders>
  );
}
