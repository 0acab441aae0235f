import { notifications } from '@mantine/notifications';
import { shortId } from '../../components/short-id';
import type { SandboxInfo } from '../../contract/sandboxes';
import { pausedNotice } from './actions';

/** Tells the user which sandboxes a start or resume paused to stay under the running cap. */
export function notifyPausedOthers(pausedIds: readonly string[] | undefined): void {
  const message = pausedNotice(pausedIds);
  if (message)
    notifications.show({
      color: 'yellow',
      title: pausedIds!.length === 1 ? 'Another sandbox was paused' : 'Other sandboxes were paused',
      message,
      autoClose: 10_000,
    });
}

/**
 * What a start returned: started, or (a command that failed at once comes back in ERROR) not
 * started, with the reason the server gave.
 */
export function notifyStarted(sandbox: SandboxInfo & { paused_sandbox_ids?: string[] }): void {
  if (sandbox.status === 'ERROR') {
    notifications.show({
      color: 'red',
      title: 'Sandbox did not start',
      message: `${shortId(sandbox.id)} from ${sandbox.sandbox_spec_id}: ${sandbox.status_detail ?? 'it failed at once'}`,
      autoClose: false,
    });
    return;
  }
  notifications.show({ color: 'teal', title: 'Sandbox started', message: `${shortId(sandbox.id)} from ${sandbox.sandbox_spec_id}` });
  notifyPausedOthers(sandbox.paused_sandbox_ids);
}
