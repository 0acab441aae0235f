import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { SandboxInfo, SandboxRuntimeName } from '../../contract/sandboxes';

/**
 * A sandbox the server no longer finds, and that did not fail: someone removed it (or, a
 * process, it ended on its own with success).
 */
const GONE: Record<SandboxRuntimeName | 'unknown', MessageDescriptor> = {
  process: msg`Its processes are gone: they ended, or were ended outside Agent Console`,
  docker: msg`Its container is gone (removed outside Agent Console)`,
  unknown: msg`It is gone (removed outside Agent Console)`,
};

/** Why a sandbox is in its state, when that needs saying: the server's words, or why it is missing. */
export function statusReason(i18n: I18n, sandbox: SandboxInfo, runtime: SandboxRuntimeName | undefined): string | undefined {
  if (sandbox.status_detail) return sandbox.status_detail;
  return sandbox.status === 'MISSING' ? i18n._(GONE[runtime ?? 'unknown']) : undefined;
}
