import { msg } from '@lingui/core/macro';
import type { SandboxStatus } from '../../../contract/sandboxes';
import { type Continuation, type NoticeTexts, SandboxNotice } from '../shared/sandbox-notice';

/** The sandbox a workspace tab reads from, and what the page offers while it does not run. */
export interface WorkspaceSandbox {
  status: SandboxStatus;
  onResume: () => void;
  resuming: boolean;
  /** Going on in a new sandbox, when its own failed or is gone. */
  continuation: Continuation;
}

/** What a workspace tab says while its sandbox does not run, by what the tab would show. */
const WORKSPACE_NOTICES: Record<'changes' | 'files', NoticeTexts> = {
  changes: {
    PAUSED: msg`The workspace can be read while its sandbox runs: resume it to see the changes.`,
    STARTING: msg`Its sandbox is starting: the changes show once it runs.`,
    ERROR: msg`Its sandbox failed, and the changes cannot be read from it. Its logs are on the Sandboxes page.`,
    MISSING: msg`Its sandbox is gone, and its workspace with it: the changes cannot be read.`,
  },
  files: {
    PAUSED: msg`The workspace can be read while its sandbox runs: resume it to see its files.`,
    STARTING: msg`Its sandbox is starting: its files show once it runs.`,
    ERROR: msg`Its sandbox failed, and its files cannot be read from it. Its logs are on the Sandboxes page.`,
    MISSING: msg`Its sandbox is gone, and its workspace with it: its files cannot be read.`,
  },
};

/** A workspace tab's place while its sandbox does not run (nothing while it runs); `tab` is which tab it is. */
export function WorkspaceSandboxNotice({ sandbox, tab }: { sandbox: WorkspaceSandbox; tab: 'changes' | 'files' }) {
  if (sandbox.status === 'RUNNING') return null;
  return (
    <SandboxNotice
      status={sandbox.status}
      says={WORKSPACE_NOTICES[tab]}
      onResume={sandbox.onResume}
      resuming={sandbox.resuming}
      continuation={sandbox.continuation}
    />
  );
}
