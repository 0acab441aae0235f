import { Trans, useLingui } from '@lingui/react/macro';
import { Code, Group, Stack, Text } from '@mantine/core';
import { CopyValue } from '../../components/copy-value';
import type { SandboxInfo } from '../../contract/sandboxes';

/** Where a running sandbox's agent server listens. */
export const agentServerUrl = (sandbox: SandboxInfo) => sandbox.exposed_urls?.find((url) => url.name === 'AGENT_SERVER')?.url;

const none = (
  <Text size="sm" c="dimmed">
    —
  </Text>
);

/**
 * The agent server's URL as text to copy, not a link: opened in a browser it only responds
 * "Unauthorized", as it wants the session key in a header.
 */
export function AgentServerUrl({ sandbox }: { sandbox: SandboxInfo }) {
  const { t } = useLingui();
  const url = agentServerUrl(sandbox);
  if (!url) return none;
  const { id } = sandbox;
  return <CopyValue value={url} display={url.replace(/^https?:\/\//, '')} label={t`agent server URL of ${id}`} maxWidth={200} />;
}

/** The session key, labelled: under or beside the agent server's URL. */
export function SessionKeyLine({ sandbox }: { sandbox: SandboxInfo }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="xs" c="dimmed">
        <Trans>Key</Trans>
      </Text>
      <SessionKey sandbox={sandbox} />
    </Group>
  );
}

export function SessionKey({ sandbox }: { sandbox: SandboxInfo }) {
  const { t } = useLingui();
  if (!sandbox.session_api_key) return none;
  const { id } = sandbox;
  return <CopyValue value={sandbox.session_api_key} label={t`session key of ${id}`} masked />;
}

/**
 * The agent server's URL with, for its owner, the session key under it: one table column for the
 * two, so that the status and actions keep their room at common widths.
 */
export function AgentServerAccess({ sandbox }: { sandbox: SandboxInfo }) {
  if (!agentServerUrl(sandbox) && !sandbox.session_api_key) return none;
  return (
    <Stack gap={2} align="flex-start">
      {agentServerUrl(sandbox) && <AgentServerUrl sandbox={sandbox} />}
      {sandbox.session_api_key && <SessionKeyLine sandbox={sandbox} />}
    </Stack>
  );
}

// eslint-disable-next-line lingui/no-unlocalized-strings -- an HTTP header's name
const SESSION_HEADER = 'X-Session-API-Key';
// eslint-disable-next-line lingui/no-unlocalized-strings -- a command line
const CURL_EXAMPLE = `curl -H "${SESSION_HEADER}: $KEY" $URL/server_info`;

/** How to call an agent server, once under the list of sandboxes that have one. */
export function AgentServerHint() {
  return (
    <Text size="xs" c="dimmed" mt="xs" data-testid="agent-server-hint">
      <Trans>
        Call an agent server with its session key in the <Code>{SESSION_HEADER}</Code> header, e.g. <Code>{CURL_EXAMPLE}</Code>
      </Trans>
    </Text>
  );
}
