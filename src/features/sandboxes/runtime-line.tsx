import { Text } from '@mantine/core';
import type { SandboxIsolation, SandboxRuntimeName } from '../../contract/sandboxes';

const RUNTIMES: Record<SandboxRuntimeName, string> = {
  process: "Runtime: process — each sandbox is a group of processes on the server's machine",
  docker: "Runtime: Docker — each sandbox is a container on the server's Docker engine",
};

const ISOLATIONS: Record<Exclude<SandboxIsolation, 'none'>, string> = {
  container: '.',
  namespaces: ', in namespaces of its own.',
  uids: ', as a user of its own.',
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
  if (!runtime) return null;
  if (isolation === 'none') {
    return (
      <Text size="sm" c="orange.8" mt={-12} mb="md" data-testid="sandbox-runtime">
        {`${RUNTIMES[runtime]}. Not isolated: sandboxes run as the server's user and can read its data directory (keys, database). Install bubblewrap and slirp4netns on the server, or use the Docker runtime, before running agents you do not trust.`}
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed" mt={-12} mb="md" data-testid="sandbox-runtime">
      {`${RUNTIMES[runtime]}${isolation ? ISOLATIONS[isolation] : '.'}`}
    </Text>
  );
}
