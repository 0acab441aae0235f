import { msg } from '@lingui/core/macro';
import { Invalid } from '../domain-errors';

/*
 * `page_id` of the /search endpoints is opaque to clients: an offset, wrapped so nobody builds
 * one by hand. A page_id that isn't one of ours is refused, not a silent first page.
 */

const encodePageId = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');

function decodePageId(pageId: string | undefined): number {
  if (pageId === undefined || pageId === '') return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(pageId, 'base64url').toString());
  if (!match) {
    throw new Invalid(['page_id'], msg`Not a page id this server gave out`, pageId);
  }
  return Number(match[1]);
}

/** One page of `items` and the id of the next page, if there is one. */
export function paginate<T>(items: readonly T[], pageId: string | undefined, limit: number): { items: T[]; next_page_id: string | null } {
  const offset = decodePageId(pageId);
  const end = offset + limit;
  return { items: items.slice(offset, end), next_page_id: end < items.length ? encodePageId(end) : null };
}

/** One page that `fetch` reads from a store at an offset, returning its items and whether more follow. */
export async function paginateOffset<T>(
  pageId: string | undefined,
  limit: number,
  fetch: (offset: number, limit: number) => Promise<{ items: T[]; more: boolean }>,
): Promise<{ items: T[]; next_page_id: string | null }> {
  const offset = decodePageId(pageId);
  const { items, more } = await fetch(offset, limit);
  return { items, next_page_id: more ? encodePageId(offset + limit) : null };
}
