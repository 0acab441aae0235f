import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';

export interface SandboxConversation {
  id: string;
  title: string;
}

/** How many of a sandbox's conversations its row names; the rest are a link to the list of them all. */
const NAMED = 3;

/**
 * The conversations a sandbox serves, each a link to its page; nothing for none. A sandbox shared
 * by many names the first few and links the list of all of them, so its row stays a row.
 */
export function UsedBy({ sandboxId, conversations }: { sandboxId: string; conversations: readonly SandboxConversation[] | undefined }) {
  if (!conversations || conversations.length === 0) return null;
  const more = conversations.length > NAMED + 1 ? conversations.length - NAMED : 0;
  return (
    <Group gap={6} wrap="wrap" aria-label="Conversations in this sandbox" role="group">
      <Text size="xs" c="dimmed">
        {conversations.length === 1 ? 'Conversation' : `${conversations.length} conversations`}
      </Text>
      {conversations.slice(0, more ? NAMED : undefined).map((conversation) => (
        <Anchor key={conversation.id} component={Link} to={`/conversations/${conversation.id}`} size="sm">
          {conversation.title}
        </Anchor>
      ))}
      {more > 0 && (
        <Anchor component={Link} to={`/conversations?sandbox=${encodeURIComponent(sandboxId)}`} size="sm" fs="italic">
          and {more} more
        </Anchor>
      )}
    </Group>
  );
}

/** "conversation “A”" or "conversations “A” and “B”", for a confirmation. */
export function namedConversations(conversations: readonly SandboxConversation[]): string {
  const quoted = conversations.map((conversation) => `“${conversation.title}”`);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
  return `${conversations.length === 1 ? 'conversation' : 'conversations'} ${list}`;
}
