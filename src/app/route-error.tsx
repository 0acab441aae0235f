import { Alert, Button, Code, Stack, Text } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { PageHeader } from '../components/page-header';

/** What a broken or unknown page shows instead of a blank screen. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <Stack p="lg">
      <Alert color="red" title="This page failed to load" role="alert">
        <Text size="sm">Reload the page to try again. If it keeps failing, the details below help a bug report.</Text>
        <Code block mt="sm">
          {error instanceof Error ? error.message : String(error)}
        </Code>
      </Alert>
      <Button component={Link} to="/settings" variant="default" w="fit-content">
        Go to Settings
      </Button>
    </Stack>
  );
}

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" description="Nothing lives at this address." />
      <Button component={Link} to="/settings" variant="default">
        Go to Settings
      </Button>
    </>
  );
}
