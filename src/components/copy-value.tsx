import { useLingui } from '@lingui/react/macro';
import { ActionIcon, CopyButton, Group, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * A value with a copy button. `masked` shows dots instead (a key), but copies the real value;
 * `display` shows a shorter text (a short id) with the full value on hover. Otherwise the full
 * text is in the page, shortened only visually.
 */
export function CopyValue({
  value,
  label,
  masked = false,
  display,
  maxWidth = 180,
}: {
  value: string;
  label: string;
  masked?: boolean;
  display?: string;
  maxWidth?: number;
}) {
  const { t } = useLingui();
  return (
    <Group gap={4} wrap="nowrap">
      <Text
        span
        ff="monospace"
        size="sm"
        maw={maxWidth}
        truncate="end"
        title={masked ? undefined : value}
        data-testid={masked ? undefined : 'copy-value'}
      >
        {masked ? '••••••••' : (display ?? value)}
      </Text>
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <ActionIcon
            variant="subtle"
            size="sm"
            color={copied ? 'teal' : 'gray'}
            onClick={copy}
            aria-label={copied ? t`${label} copied` : t`Copy ${label}`}
          >
            {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          </ActionIcon>
        )}
      </CopyButton>
    </Group>
  );
}
