/** The specs' query keys, apart from their queries: the settings save invalidates them, and needs none of the sandboxes' API for that. */
export const sandboxSpecKeys = {
  all: ['sandbox-specs'] as const,
  lists: () => [...sandboxSpecKeys.all, 'list'] as const,
  list: () => [...sandboxSpecKeys.lists()] as const,
};
