import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ConversationSortOrder } from '../../../contract/conversations';
import { PROVIDER_NAMES, isProvider } from '../../../contract/secrets';

export const SORT_OPTIONS: { value: ConversationSortOrder; label: MessageDescriptor }[] = [
  { value: 'CREATED_AT_DESC', label: msg`Newest first` },
  { value: 'CREATED_AT', label: msg`Oldest first` },
  { value: 'UPDATED_AT_DESC', label: msg`Recently updated` },
  { value: 'UPDATED_AT', label: msg`Least recently updated` },
  { value: 'TITLE', label: msg`Title A–Z` },
  { value: 'TITLE_DESC', label: msg`Title Z–A` },
];

/** "octo/hello@main (GitHub)", or `null` without a repository. */
export function repositoryLabel(conversation: {
  selected_repository: string | null;
  selected_branch: string | null;
  git_provider: string | null;
}) {
  if (!conversation.selected_repository) return null;
  const branch = conversation.selected_branch ? `@${conversation.selected_branch}` : '';
  const provider =
    conversation.git_provider && isProvider(conversation.git_provider) ? ` (${PROVIDER_NAMES[conversation.git_provider]})` : '';
  return `${conversation.selected_repository}${branch}${provider}`;
}
