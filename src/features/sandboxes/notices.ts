import { notifications } from '@mantine/notifications';
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

export function notifyStarted(sandbox: SandboxInfo & { paused_sandbox_ids?: string[] }): void {
  notifications.show({ color: 'teal', title: 'Sandbox started', message: `${sandbox.id} from ${sandbox.sandbox_spec_id}` });
  notifyPausedOthers(sandbox.paused_sandbox_ids);
}
