import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Kbd, Modal, Stack, Switch, Table, Text } from '@mantine/core';
import { SHORTCUTS } from './shortcuts';
export { loadCatalog as catalog } from './catalog';

export interface ShortcutsDialogProps {
  opened: boolean;
  onClose: () => void;
  enabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
}

/** The list of shortcuts, and the switch that turns them all off (WCAG 2.1.4: single-key shortcuts can be). */
export function ShortcutsDialog({ opened, onClose, enabled, onEnabledChange }: ShortcutsDialogProps) {
  const { t, i18n } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Keyboard shortcuts`}>
      <Stack gap="md">
        <Table aria-label={t`Shortcuts`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>Keys</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Does</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {SHORTCUTS.map(({ keys, description }) => (
              <Table.Tr key={keys.join(' ')}>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {keys.map((key, i) => (
                      <Group key={i} gap={4} wrap="nowrap">
                        {i > 0 && (
                          <Text span size="xs" c="dimmed">
                            <Trans>then</Trans>
                          </Text>
                        )}
                        <Kbd>{key}</Kbd>
                      </Group>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{i18n._(description)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          <Trans>They do nothing while you type in a field or a dialog is open, nor with Ctrl, Alt or ⌘.</Trans>
        </Text>
        <Switch
          label={t`Use these shortcuts`}
          description={t`Off: these keys do nothing (this list stays under the keyboard button at the top). Remembered in this browser.`}
          checked={enabled}
          onChange={(event) => onEnabledChange(event.currentTarget.checked)}
        />
      </Stack>
    </Modal>
  );
}
