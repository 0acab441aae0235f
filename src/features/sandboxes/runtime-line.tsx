import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import type { SandboxIsolation, SandboxRuntimeName } from '../../contract/sandboxes';

const DOCKER = msg`Runtime: Docker — each sandbox is a container on the server's Docker engine.`;

/** Where sandboxes run and what keeps them apart, a whole sentence for each runtime and isolation. */
const RUNTIME_LINES: Record<SandboxRuntimeName, Record<SandboxIsolation, MessageDescriptor>> = {
  process: {
    container: msg`Runtime: process — each sandbox is a group of processes on the server's machine.`,
    namespaces: msg`Runtime: process — each sandbox is a group of processes on the server's machine, in namespaces of its own.`,
    uids: msg`Runtime: process — each sandbox is a group of processes on the server's machine, as a user of its own.`,
    none: msg`Runtime: process — each sandbox is a group of processes on the server's machine. Not isolated: sandboxes run as the server's user and can read its data directory (keys, database). Install bubblewrap and slirp4netns on the server, or use the Docker runtime, before running agents you do not trust.`,
  },
  // A container is its own isolation: the Docker runtime has no namespaces or uids of its own to tell.
  docker: {
    container: DOCKER,
    namespaces: DOCKER,
    uids: DOCKER,
    none: msg`Runtime: Docker — each sandbox is a container on the server's Docker engine. Not isolated: sandboxes run as the server's user and can read its data directory (keys, database). Install bubblewrap and slirp4netns on the server, or use the Docker runtime, before running agents you do not trust.`,
  },
};

/**
 * Where sandboxes run (SANDBOX_RUNTIME) and what keeps them apart; a warning when nothing does.
 * Nothing when the server does not say (OpenHands).
 */
export function SandboxRuntimeLine({
  runtime,
  isolation,
}: {
  runtime: SandboxRuntimeName | undefined;
  isolation: SandboxIsolation | undefined;
}) {
  const { t } = useLingui();
  if (!runtime) return null;
  const line = t(RUNTIME_LINES[runtime][isolation ?? 'container']);
  if (isolation === 'none') {
    return (
      <Text size="sm" c="orange.8" mt={-12} mb="md" data-testid="sandbox-runtime">
        {line}
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed" mt={-12} mb="md" data-testid="sandbox-runtime">
      {line}
    </Text>
  );
}
