import { Text } from '@mantine/core';

/** Prefixes that every id of a kind shares, so they tell nothing apart: OpenHands' Docker sandboxes. */
const SHARED_PREFIXES = ['oh-agent-server-'];
const SHORT_LENGTH = 8;

/** What people see of a long id: its first 8 characters after a prefix every such id has. */
export function shortId(id: string): string {
  const prefix = SHARED_PREFIXES.find((p) => id.startsWith(p) && id.length > p.length);
  return (prefix ? id.slice(prefix.length) : id).slice(0, SHORT_LENGTH);
}

/** A long id as its short form, in full on hover. */
export function ShortId({ id }: { id: string }) {
  return (
    <Text span ff="monospace" inherit title={id}>
      {shortId(id)}
    </Text>
  );
}
