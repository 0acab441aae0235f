import { useLingui } from '@lingui/react';
import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { PAGE_TITLES, TAB_LABELS } from './page-labels';
import { PAGE_NAMES, PAGES } from './pages';
import { useHiddenPages } from './use-hidden-pages';

const TABS = PAGE_NAMES.flatMap((name) => {
  const { tab, path } = PAGES[name];
  return tab ? [{ name, label: TAB_LABELS[name] ?? PAGE_TITLES[name], to: path }] : [];
});

/** The Settings sub-pages; each has its own URL so it can be shared and reloaded. */
export function SettingsTabs() {
  const { _ } = useLingui();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const hidden = useHiddenPages();
  const active = TABS.find((tab) => pathname.replace(/\/$/, '') === tab.to)?.to ?? PAGES.settings.path;
  return (
    <Tabs value={active} onChange={(to) => void navigate(to ?? PAGES.settings.path)} mb="lg">
      <Tabs.List>
        {TABS.filter((tab) => !hidden.has(tab.name)).map((tab) => (
          <Tabs.Tab key={tab.to} value={tab.to}>
            {_(tab.label)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
