import { sessionKeyCaller } from '../authz/caller';
import { expect, vi } from 'vitest';
import type { SandboxInfo, SandboxSpec } from '../../src/contract/sandboxes';
import type { TestApp } from './test-app';

/** A spec that runs `script` with `sh -c` in the sandbox's home. */
export const shellSpec = (id: string, script: string): SandboxSpec => ({
  id,
  command: ['sh', '-c', script],
  created_at: new Date().toISOString(),
  initial_env: {},
  working_dir: '',
});

export async function startSandbox(t: TestApp, spec: string): Promise<{ id: string; status: string }> {
  const response = await t.request({ method: 'POST', url: `/api/v1/sandboxes?sandbox_spec_id=${spec}` });
  if (response.statusCode !== 200) throw new Error(`starting ${spec}: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** The sandbox as the API returns it, or null when there is none. */
export async function sandboxInfo(t: TestApp, id: string): Promise<SandboxInfo | null> {
  return (await t.request({ method: 'GET', url: `/api/v1/sandboxes?id=${id}` })).json()[0];
}

/** Waits until the sandbox's status is `status`, at most `ms`; returns its info then. */
export const statusBecomes = (t: TestApp, id: string, status: string, ms = 20_000) =>
  vi.waitFor(
    async () => {
      const info = await sandboxInfo(t, id);
      expect(info?.status).toBe(status);
      return info!;
    },
    { timeout: ms },
  );

/** Deletes every sandbox of the app (processes and all). */
export async function deleteAllSandboxes(t: TestApp): Promise<void> {
  for (const sandbox of (await t.services.sandboxes.search(sessionKeyCaller, { limit: 100 })).items)
    await t.services.sandboxes.delete(sessionKeyCaller, sandbox.id);
}

/** The last `tail` lines of its log, without the time the engine puts before each line of a container. */
export async function logLines(t: TestApp, id: string, tail = 100): Promise<string[]> {
  const response = await t.request({ method: 'GET', url: `/api/v1/sandboxes/${id}/logs?tail=${tail}` });
  return (response.json().lines as string[]).map((line) => line.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, ''));
}
