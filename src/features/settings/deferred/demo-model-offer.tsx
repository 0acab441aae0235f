import { Trans } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { DEMO_MODEL } from '../../../contract/demo-model';

/** For someone without an LLM or its key at hand: the demo model, one click away. */
export function DemoModelOffer({ onUse }: { onUse: () => void }) {
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Text size="sm" c="dimmed">
        <Trans>
          No LLM or key at hand? The demo model (<code>{DEMO_MODEL}</code>) plays a scripted session with no LLM and no key.
        </Trans>
      </Text>
      <Button type="button" size="xs" variant="light" onClick={onUse} style={{ flex: 'none' }}>
        <Trans>Use the demo model</Trans>
      </Button>
    </Group>
  );
}
export { loadCatalog as catalog } from './catalog';
