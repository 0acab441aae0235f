import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';

export interface SandboxConversation {
  id: string;
  title: string;
}

/** The conversations a sandbox serves, each a link to its page; nothing for none. */
export function UsedBy({ conversations }: { conversations: readonly SandboxConversation[] | undefined }) {
  if (!conversations || conversations.length === 0) return null;
  return (
    <Group gap={6} wrap="wrap" aria-label="Conversations in this sandbox" role="group">
      <Text size="xs" c="dimmed">
        {conversations.length === 1 ? 'Conversation' : 'Conversations'}
      </Text>
      {conversations.map((conversation) => (
        <Anchor key={conversation.id} component={Link} to={`/conversations/${conversation.id}`} size="sm">
          {conversation.title}
        </Anchor>
      ))}
    </Group>
  );
}

/** "conversation “A”" or "conversations “A” and “B”", for a confirmation. */
export function namedConversations(conversations: readonly SandboxConversation[]): string {
  const quoted = conversations.map((conversation) => `“${conversation.title}”`);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
  return `${conversations.length === 1 ? 'conversation' : 'conversations'} ${list}`;
}
