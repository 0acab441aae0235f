import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { SignInPage } from '../features/auth/sign-in-page';
import { useSession } from '../features/auth/use-session';
import { AppProviders } from './providers';
import { createRouter } from './router';

function SessionGate() {
  const session = useSession();
  const [router] = useState(createRouter);
  const queryClient = useQueryClient();
  // Data read with one key (or from one server) must not show after signing out.
  useEffect(() => {
    if (!session) queryClient.clear();
  }, [session, queryClient]);
  return session ? <RouterProvider router={router} /> : <SignInPage />;
}

export function App() {
  return (
    <AppProviders>
      <SessionGate />
    </AppProviders>
  );
}
