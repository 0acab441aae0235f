import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { notifications } from '@mantine/notifications';
import { shortId } from '../../components/short-id';
import type { SandboxInfo } from '../../contract/sandboxes';
import { pausedNotice } from './actions';

/** Tells the user which sandboxes a start or resume paused to stay under the running cap. */
export function notifyPausedOthers(i18n: I18n, pausedIds: readonly string[] | undefined): void {
  const message = pausedNotice(pausedIds);
  if (!message) return;
  const count = pausedIds!.length;
  notifications.show({
    color: 'yellow',
    title: i18n._(msg`${plural(count, { one: 'Another sandbox was paused', other: 'Other sandboxes were paused' })}`),
    message: i18n._(message),
    autoClose: 10_000,
  });
}

/**
 * What a start returned: started, or (a command that failed at once comes back in ERROR) not
 * started, with the reason the server gave.
 */
export function notifyStarted(i18n: I18n, sandbox: SandboxInfo & { paused_sandbox_ids?: string[] }): void {
  const id = shortId(sandbox.id);
  const spec = sandbox.sandbox_spec_id;
  if (sandbox.status === 'ERROR') {
    const reason = sandbox.status_detail ?? i18n._(msg`it failed at once`);
    notifications.show({
      color: 'red',
      title: i18n._(msg`Sandbox did not start`),
      message: i18n._(msg`${id} from ${spec}: ${reason}`),
      autoClose: false,
    });
    return;
  }
  notifications.show({ color: 'teal', title: i18n._(msg`Sandbox started`), message: i18n._(msg`${id} from ${spec}`) });
  notifyPausedOthers(i18n, sandbox.paused_sandbox_ids);
}
