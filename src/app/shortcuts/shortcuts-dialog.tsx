import { Group, Kbd, Modal, Stack, Switch, Table, Text } from '@mantine/core';
import { SHORTCUTS } from './shortcuts';

export interface ShortcutsDialogProps {
  opened: boolean;
  onClose: () => void;
  enabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
}

/** The list of shortcuts, and the switch that turns them all off (WCAG 2.1.4: single-key shortcuts can be). */
export function ShortcutsDialog({ opened, onClose, enabled, onEnabledChange }: ShortcutsDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts">
      <Stack gap="md">
        <Table aria-label="Shortcuts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Keys</Table.Th>
              <Table.Th>Does</Table.Th>
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
                            then
                          </Text>
                        )}
                        <Kbd>{key}</Kbd>
                      </Group>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{description}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          They do nothing while you type in a field or a dialog is open, nor with Ctrl, Alt or ⌘.
        </Text>
        <Switch
          label="Use these shortcuts"
          description="Off: these keys do nothing (this list stays under the keyboard button at the top). Remembered in this browser."
          checked={enabled}
          onChange={(event) => onEnabledChange(event.currentTarget.checked)}
        />
      </Stack>
    </Modal>
  );
}
