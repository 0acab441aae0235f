import { RequestValidationError } from '../errors';

/*
 * `page_id` of the /search endpoints is opaque to clients: an offset, wrapped so nobody builds
 * one by hand. A page_id that isn't one of ours is a 422, not a silent first page.
 */

export const encodePageId = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');

export function decodePageId(pageId: string | undefined): number {
  if (pageId === undefined || pageId === '') return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(pageId, 'base64url').toString());
  if (!match) {
    throw new RequestValidationError([
      {
        type: 'value_error',
        loc: ['query', 'page_id'],
        msg: 'Value error, Not a page id this server gave out',
        input: pageId,
        ctx: { error: {} },
      },
    ]);
  }
  return Number(match[1]);
}
