import { msg } from '@lingui/core/macro';
import { MAX_PAGE_SIZE } from '../../src/contract/sandboxes';
import { Invalid } from '../domain-errors';

const HEX_ID = /^[0-9a-f]{32}$/;

/** A conversation or task id from a path or query: 32 hex or a dashed UUID, as stored (hex); `undefined` when it is neither. */
export function normaliseId(id: string): string | undefined {
  const hex = id.toLowerCase().replaceAll('-', '');
  return HEX_ID.test(hex) ? hex : undefined;
}

/** Batch gets take at most a page's worth of ids (OpenHands responds to more with a 500). */
export function refuseTooMany(ids: string[], what: string): void {
  if (ids.length > MAX_PAGE_SIZE)
    throw new Invalid(['ids'], msg`Cannot request more than ${MAX_PAGE_SIZE} ${what} at once, got ${ids.length}`);
}
