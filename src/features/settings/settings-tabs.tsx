import { Tabs } from '@mantine/core';
import { useNavigate } from 'react-router';

const TABS = [
  { value: 'general', label: 'General', to: '/settings' },
  { value: 'mcp', label: 'MCP servers', to: '/settings/mcp' },
] as const;

/** The Settings sub-pages; each has its own URL so it can be shared and reloaded. */
export function SettingsTabs({ active }: { active: (typeof TABS)[number]['value'] }) {
  const navigate = useNavigate();
  return (
    <Tabs value={active} onChange={(value) => navigate(TABS.find((tab) => tab.value === value)?.to ?? '/settings')} mb="lg">
      <Tabs.List>
        {TABS.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
