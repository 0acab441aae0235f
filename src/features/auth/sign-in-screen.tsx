import { Trans, useLingui } from '@lingui/react/macro';
import { Center, Paper, Text, Title } from '@mantine/core';
import { Dialog } from '../../components/dialog';
import { SignInForm } from './sign-in-form';

/** Loaded with its strings (withCatalog). */
export { loadAuthCatalog as catalog } from './catalog';

/** The whole screen, before the console is used. */
export function SignInPage() {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={420} maw="100%">
        <Title order={1} size="h3">
          <Trans>Sign in to Agent Console</Trans>
        </Title>
        <Text size="sm" c="dimmed" mt={4} mb="md">
          <Trans>
            Members of a team sign in with their email and password. The owner uses the sign-in link the server printed when it started, or
            its session API key.
          </Trans>
        </Text>
        <SignInForm />
      </Paper>
    </Center>
  );
}

/**
 * Over the page, when the server stopped accepting the key mid-use: signing in again returns to
 * the page as it was, unsaved edits included.
 */
export function SessionExpiredDialog({ baseUrl }: { baseUrl: string }) {
  const { t } = useLingui();
  return (
    <Dialog
      opened
      onClose={() => {}}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      centered
      title={t`Sign in to Agent Console`}
    >
      <Text size="sm" mb="md" role="status">
        <Trans>The server no longer accepts your session key. Sign in again to continue; unsaved changes on this page are kept.</Trans>
      </Text>
      <SignInForm baseUrl={baseUrl} />
    </Dialog>
  );
}
