import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { PAGE_NAMES, PAGES } from './pages';

const TABS = PAGE_NAMES.flatMap((name) => {
  const { tab, path } = PAGES[name];
  return tab ? [{ label: tab, to: path }] : [];
});

/** The Settings sub-pages; each has its own URL so it can be shared and reloaded. */
export function SettingsTabs() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const active = TABS.find((tab) => pathname.replace(/\/$/, '') === tab.to)?.to ?? PAGES.settings.path;
  return (
    <Tabs value={active} onChange={(to) => void navigate(to ?? PAGES.settings.path)} mb="lg">
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
