import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  if (!conversations || conversations.length === 0) return null;
  const count = conversations.length;
  const more = count > NAMED + 1 ? count - NAMED : 0;
  return (
    <Group gap={6} wrap="wrap" aria-label={t`Conversations in this sandbox`} role="group">
      <Text size="xs" c="dimmed">
        {t`${plural(count, { 1: 'Conversation', other: '# conversations' })}`}
      </Text>
      {conversations.slice(0, more ? NAMED : undefined).map((conversation) => (
        <Anchor key={conversation.id} component={Link} to={`/conversations/${conversation.id}`} size="sm">
          {conversation.title}
        </Anchor>
      ))}
      {more > 0 && (
        <Anchor component={Link} to={`/conversations?sandbox=${encodeURIComponent(sandboxId)}`} size="sm" fs="italic">
          <Trans>and {more} more</Trans>
        </Anchor>
      )}
    </Group>
  );
}

/** "conversation “A”" or "conversations “A” and “B”", for a confirmation, in the language's list and quotes. */
export function namedConversations(i18n: I18n, conversations: readonly SandboxConversation[]): string {
  const quoted = conversations.map(({ title }) =>
    i18n._(msg({ message: `“${title}”`, comment: "A conversation's title, quoted within a sentence" })),
  );
  const list = new Intl.ListFormat(i18n.locale, { type: 'conjunction' }).format(quoted);
  const count = conversations.length;
  return i18n._(msg`${plural(count, { one: `conversation ${list}`, other: `conversations ${list}` })}`);
}
