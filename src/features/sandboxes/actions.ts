import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { describeError, isApiError } from '../../api/errors';
import type { SandboxAction } from '../../api/sandboxes';
import { shortId } from '../../components/short-id';
import type { SandboxInfo, SandboxStatus } from '../../contract/sandboxes';

/** Which states each action makes sense in (delete: any). */
const VALID_IN: Record<SandboxAction, readonly SandboxStatus[] | 'any'> = {
  pause: ['RUNNING', 'STARTING'],
  resume: ['PAUSED'],
  delete: 'any',
};

export function canApply(action: SandboxAction, status: SandboxStatus): boolean {
  const valid = VALID_IN[action];
  return valid === 'any' || valid.includes(status);
}

/** A bulk action on a selection: the sandboxes it applies to, and those it skips (wrong state). */
export function planBulk(action: SandboxAction, selected: readonly SandboxInfo[]): { apply: SandboxInfo[]; skip: SandboxInfo[] } {
  const apply = selected.filter((sandbox) => canApply(action, sandbox.status));
  return { apply, skip: selected.filter((sandbox) => !apply.includes(sandbox)) };
}

/** The tell-the-user sentence when a start or resume paused other sandboxes to stay under the cap. */
export function pausedNotice(pausedIds: readonly string[] | undefined): MessageDescriptor | undefined {
  if (!pausedIds?.length) return undefined;
  // Ids, not words: a comma reads alike in every language.
  const names = pausedIds.map(shortId).join(', ');
  const count = pausedIds.length;
  return msg`${plural(count, {
    one: `Sandbox ${names} was paused to stay within the number of sandboxes that may run at once.`,
    other: `Sandboxes ${names} were paused to stay within the number of sandboxes that may run at once.`,
  })}`;
}

/** Gone or failed: nothing left to pause or resume, only to delete or start afresh. */
export function hasEnded(status: SandboxStatus): boolean {
  return status === 'ERROR' || status === 'MISSING';
}

/**
 * Why an action on one sandbox failed. A 404 carries only FastAPI's "Not Found": for a resume it
 * means the sandbox's processes have ended (OpenHands answers so too), otherwise that it is gone.
 */
export function actionFailure(i18n: I18n, action: SandboxAction, error: unknown): string {
  if (isApiError(error) && error.kind === 'http' && error.status === 404) {
    return i18n._(
      action === 'resume'
        ? msg`Its processes have ended, so it cannot be resumed: delete it, or start a new one.`
        : msg`It no longer exists.`,
    );
  }
  return describeError(error);
}
