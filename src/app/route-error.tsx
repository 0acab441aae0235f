import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { PageHeader } from '../components/page-header';
import { HOME, PAGES } from './pages';

/** A page's code that could not be fetched: the server is down or unreachable (each browser words it its own way). */
export const isModuleLoadFailure = (error: unknown) =>
  error instanceof Error &&
  /dynamically imported module|Importing a module script failed|Unable to preload CSS|error loading dynamically imported/i.test(
    error.message,
  );

/** Whether the server the console came from responds again (its start page needs no key). */
async function serverResponds(): Promise<boolean> {
  try {
    return (await fetch('/', { cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

/** What a broken or unknown page shows instead of a blank screen. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isModuleLoadFailure(error)) return <ServerUnreachable />;
  return (
    <Stack p="lg">
      <Alert color="red" title="This page failed to load" role="alert">
        <Text size="sm">Reload the page to try again. If it keeps failing, the details below help a bug report.</Text>
        <Code block mt="sm">
          {error instanceof Error ? error.message : String(error)}
        </Code>
      </Alert>
      <Button component={Link} to={PAGES[HOME].path} variant="default" w="fit-content">
        Go to {PAGES[HOME].title}
      </Button>
    </Stack>
  );
}

/** The page's code did not arrive: say so, and load it again once the server responds. */
function ServerUnreachable() {
  const [checking, setChecking] = useState(false);
  const [stillDown, setStillDown] = useState(false);
  const retry = async () => {
    setChecking(true);
    if (await serverResponds()) {
      window.location.reload(); // a failed page import is not tried again in place
      return;
    }
    setChecking(false);
    setStillDown(true);
  };
  return (
    <Alert color="orange" title="Server unreachable" role="alert">
      <Text size="sm">
        This page could not be loaded from the server. Check that it is running and reachable, then retry; the other pages you opened still
        work.
      </Text>
      {stillDown && (
        <Text size="sm" mt="xs" fw={500}>
          Still no response from the server.
        </Text>
      )}
      <Group mt="sm">
        <Button onClick={() => void retry()} loading={checking}>
          Retry
        </Button>
      </Group>
    </Alert>
  );
}

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" description="Nothing lives at this address." />
      <Button component={Link} to={PAGES[HOME].path} variant="default">
        Go to {PAGES[HOME].title}
      </Button>
    </>
  );
}

/** An admin page a member reached by its address. */
export function NotForYourRole({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} description="This page is for the team's owner and admins: it is not for your role." />
      <Button component={Link} to={PAGES[HOME].path} variant="default">
        Go to {PAGES[HOME].title}
      </Button>
    </>
  );
}
