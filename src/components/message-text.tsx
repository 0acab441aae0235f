import { Text } from '@mantine/core';
import { lazy, Suspense } from 'react';

/** The text as it is, while the markdown renderer loads. */
function PlainText({ text }: { text: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

/** Should its code fail to load (the server was updated meanwhile), the plain text stays. */
const Markdown = lazy(() => import('./markdown').catch(() => ({ default: PlainText })));

/**
 * A message in markdown. The renderer and its highlighting are fetched the first time one shows
 * (they would double the page's download); until then the plain text stands in.
 */
export function MessageText({ text }: { text: string }) {
  return (
    <Suspense fallback={<PlainText text={text} />}>
      <Markdown text={text} />
    </Suspense>
  );
}
