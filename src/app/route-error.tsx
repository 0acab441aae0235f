import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { PageHeader } from '../components/page-header';
import { PAGE_TITLES } from './page-labels';
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
  const { t } = useLingui();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isModuleLoadFailure(error)) return <ServerUnreachable />;
  return (
    <Stack p="lg">
      <Alert color="red" title={t`This page failed to load`} role="alert">
        <Text size="sm">
          <Trans>Reload the page to try again. If it keeps failing, the details below help a bug report.</Trans>
        </Text>
        <Code block mt="sm">
          {error instanceof Error ? error.message : String(error)}
        </Code>
      </Alert>
      <GoHome w="fit-content" />
    </Stack>
  );
}

/** The page's code did not arrive: say so, and load it again once the server responds. */
function ServerUnreachable() {
  const { t } = useLingui();
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
    <Alert color="orange" title={t`Server unreachable`} role="alert">
      <Text size="sm">
        <Trans>
          This page could not be loaded from the server. Check that it is running and reachable, then retry; the other pages you opened
          still work.
        </Trans>
      </Text>
      {stillDown && (
        <Text size="sm" mt="xs" fw={500}>
          <Trans>Still no response from the server.</Trans>
        </Text>
      )}
      <Group mt="sm">
        <Button onClick={() => void retry()} loading={checking}>
          <Trans>Retry</Trans>
        </Button>
      </Group>
    </Alert>
  );
}

/** The way back from an error: the home page. */
function GoHome({ w }: { w?: string }) {
  const { i18n } = useLingui();
  const home = i18n._(PAGE_TITLES[HOME]);
  return (
    <Button component={Link} to={PAGES[HOME].path} variant="default" w={w}>
      <Trans>Go to {home}</Trans>
    </Button>
  );
}

export function NotFound() {
  const { t } = useLingui();
  return (
    <>
      <PageHeader title={t`Page not found`} description={t`Nothing lives at this address.`} />
      <GoHome />
    </>
  );
}

/** An admin page a member reached by its address. */
export function NotForYourRole({ title }: { title: string }) {
  const { t } = useLingui();
  return (
    <>
      <PageHeader title={title} description={t`This page is for the team's owner and admins: it is not for your role.`} />
      <GoHome />
    </>
  );
}
