import { Text } from '@mantine/core';
import type { SandboxRuntimeName } from '../../contract/sandboxes';

const RUNTIMES: Record<SandboxRuntimeName, string> = {
  process: "Runtime: process — each sandbox is a group of processes on the server's machine.",
  docker: "Runtime: Docker — each sandbox is a container on the server's Docker engine.",
};

/** Where sandboxes run (SANDBOX_RUNTIME); nothing when the server does not say (OpenHands). */
export function SandboxRuntimeLine({ runtime }: { runtime: SandboxRuntimeName | undefined }) {
  if (!runtime) return null;
  return (
    <Text size="sm" c="dimmed" mt={-12} mb="md" data-testid="sandbox-runtime">
      {RUNTIMES[runtime]}
    </Text>
  );
}
