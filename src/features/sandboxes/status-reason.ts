import type { SandboxInfo, SandboxRuntimeName } from '../../contract/sandboxes';

/**
 * A sandbox the server no longer finds, and that did not fail: someone removed it (or, a
 * process, it ended on its own with success).
 */
const GONE: Record<SandboxRuntimeName | 'unknown', string> = {
  process: 'Its processes are gone: they ended, or were ended outside Agent Console',
  docker: 'Its container is gone (removed outside Agent Console)',
  unknown: 'It is gone (removed outside Agent Console)',
};

/** Why a sandbox is in its state, when that needs saying: the server's words, or why it is missing. */
export function statusReason(sandbox: SandboxInfo, runtime: SandboxRuntimeName | undefined): string | undefined {
  if (sandbox.status_detail) return sandbox.status_detail;
  return sandbox.status === 'MISSING' ? GONE[runtime ?? 'unknown'] : undefined;
}
