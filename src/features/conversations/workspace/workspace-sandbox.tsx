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

/** What a workspace tab says while its sandbox does not run: `what` is what it would show ("the changes"). */
const workspaceNotice = (what: string): NoticeTexts => ({
  PAUSED: `The workspace can be read while its sandbox runs: resume it to see ${what}.`,
  STARTING: `Its sandbox is starting: ${what} show once it runs.`,
  ERROR: `Its sandbox failed, and ${what} cannot be read from it. Its logs are on the Sandboxes page.`,
  MISSING: `Its sandbox is gone, and its workspace with it: ${what} cannot be read.`,
});

/** A workspace tab's place while its sandbox does not run (nothing while it runs). */
export function WorkspaceSandboxNotice({ sandbox, what }: { sandbox: WorkspaceSandbox; what: string }) {
  if (sandbox.status === 'RUNNING') return null;
  return (
    <SandboxNotice
      status={sandbox.status}
      says={workspaceNotice(what)}
      onResume={sandbox.onResume}
      resuming={sandbox.resuming}
      continuation={sandbox.continuation}
    />
  );
}
