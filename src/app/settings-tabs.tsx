import { useLingui } from '@lingui/react/macro';
import { NavLink } from 'react-router';
import { PAGE_TITLES, TAB_LABELS } from './page-labels';
import { PAGE_NAMES, PAGES } from './pages';
import classes from './settings-tabs.module.css';
import { useHiddenPages } from './use-hidden-pages';

const TABS = PAGE_NAMES.flatMap((name) => {
  const { tab, path } = PAGES[name];
  return tab ? [{ name, label: TAB_LABELS[name] ?? PAGE_TITLES[name], to: path }] : [];
});

/**
 * The Settings sub-pages, as links drawn like Mantine's tabs: each has its own URL, to share and
 * reload, and the browser's own link behaviour (open in a new tab, history).
 */
export function SettingsTabs() {
  const { t, i18n } = useLingui();
  const hidden = useHiddenPages();
  return (
    <nav aria-label={t`Settings pages`} className={classes.tabs}>
      {TABS.filter((tab) => !hidden.has(tab.name)).map((tab) => (
        // `end`: General (/settings) is not the current page on its sub-pages.
        <NavLink key={tab.to} to={tab.to} end className={classes.tab}>
          {i18n._(tab.label)}
        </NavLink>
      ))}
    </nav>
  );
}
