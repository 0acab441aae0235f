import type { Reply } from './fake-provider-api';

/*
 * Bitbucket Cloud's paged lists (REST 2.0) as it serves them: `pagelen` and `page` in the query,
 * `size` (all items), `page`, `pagelen`, `values` and the address of the `next` page while there is
 * one; `q=name~"part"` keeps the items whose name has the part in it, any case.
 */

const repository = (slug: string, mainbranch: string, hasIssues: boolean, updatedOn: string, isPrivate = true) => ({
  type: 'repository',
  uuid: `{${slug}-0000-4000-8000-000000000000}`,
  slug,
  name: slug,
  full_name: `turing/${slug}`,
  workspace: { type: 'workspace', slug: 'turing', name: 'Turing' },
  is_private: isPrivate,
  has_issues: hasIssues,
  updated_on: updatedOn,
  mainbranch: { type: 'branch', name: mainbranch },
});

/** Workspace turing's repositories, the most recently updated first. */
export const BITBUCKET_REPOSITORIES = [
  repository('bombe', 'main', true, '2025-11-22T08:00:00+00:00'),
  repository('enigma', 'trunk', false, '2025-11-21T08:00:00+00:00', false),
  repository('colossus', 'main', false, '2025-11-20T08:00:00+00:00'),
];

const branch = (name: string, hash: string, date: string) => ({
  type: 'branch',
  name,
  target: { type: 'commit', hash, date },
});

/** turing/bombe's branches, the newest commit first (`sort=-target.date`). */
export const BITBUCKET_BRANCHES = [
  branch('faster-drums', 'b0b021', '2025-11-22T08:00:00+00:00'),
  branch('menus', 'b0b022', '2025-11-21T08:00:00+00:00'),
  branch('main', 'b0b020', '2025-11-20T08:00:00+00:00'),
];

export function bitbucketListPage(url: URL, items: { name: string }[]): Reply {
  const pagelen = Number(url.searchParams.get('pagelen') ?? 10);
  const page = Number(url.searchParams.get('page') ?? 1);
  const part = /^name~"(.*)"$/.exec(url.searchParams.get('q') ?? '')?.[1]?.toLowerCase();
  const matching = part === undefined ? items : items.filter((item) => item.name.toLowerCase().includes(part));
  const values = matching.slice((page - 1) * pagelen, page * pagelen);
  const next = new URL(url.href);
  next.searchParams.set('page', String(page + 1));
  return {
    body: {
      size: matching.length,
      page,
      pagelen,
      values,
      ...(page * pagelen < matching.length
        ? { next: `https://api.bitbucket.org/2.0${next.pathname.replace(/^\/2\.0/, '')}${next.search}` }
        : {}),
    },
  };
}
