import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';

const TABS = [
  { label: 'General', to: '/settings' },
  { label: 'MCP servers', to: '/settings/mcp' },
] as const;

/** The Settings sub-pages; each has its own URL so it can be shared and reloaded. */
export function SettingsTabs() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const active = TABS.find((tab) => pathname.replace(/\/$/, '') === tab.to)?.to ?? TABS[0].to;
  return (
    <Tabs value={active} onChange={(to) => void navigate(to ?? TABS[0].to)} mb="lg">
      <Tabs.List>
        {TABS.map((tab) => (
          <Tabs.Tab key={tab.to} value={tab.to}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
