import { msg } from '@lingui/core/macro';
import { Invalid } from '../../domain-errors';
import type { Cursor } from '../../store/conversations-store';

/*
 * `page_id` of keyset-paged searches: the sort order and the last row's sort value and id,
 * wrapped so nobody builds one by hand. Pages stay gap-free and without repeats while rows are
 * added, unlike offsets.
 */

export const encodeCursor = (sort: string, cursor: Cursor): string =>
  Buffer.from(JSON.stringify([sort, cursor.value, cursor.id])).toString('base64url');

/** The cursor in `pageId`; a page id of another sort order, or not ours, is refused. */
export function decodeCursor(sort: string, pageId: string | undefined): Cursor | undefined {
  if (pageId === undefined || pageId === '') return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(pageId, 'base64url').toString());
    if (Array.isArray(decoded) && decoded.length === 3 && decoded[0] === sort && decoded.every((part) => typeof part === 'string')) {
      return { value: decoded[1] as string, id: decoded[2] as string };
    }
  } catch {
    // refused below
  }
  throw new Invalid(['page_id'], msg`Not a page id this server gave out for this sort order`, pageId);
}
