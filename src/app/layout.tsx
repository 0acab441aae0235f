import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Burger, Button, Group, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconBox,
  IconHistory,
  IconChartBar,
  IconKey,
  IconKeyboard,
  IconLogout,
  IconMessages,
  IconSettings,
  IconStack2,
  IconUsers,
} from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { NavLink as RouterNavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useSessionState } from '../features/auth/use-session';
import classes from './layout.module.css';
import { PAGE_TITLES } from './page-labels';
import { NAVIGATION_PAGES, type NavigationPageName, PAGES } from './pages';
import { PageSkeleton } from './page-skeleton';
import { NotForYourRole } from './route-error';
import { ServerBadge } from './server-badge';
import { useHiddenPages, useRefusedPage } from './use-hidden-pages';
import { useSettingsLanguage } from './use-settings-language';
import { useStoredFlag } from './use-stored-flag';
import { withCatalog } from '../i18n/catalogs';

/** Loaded when first opened: its table and switch are not part of any page's first download. */
const ShortcutsListener = lazy(() => import('./shortcuts/shortcuts-listener'));
const ShortcutsDialog = lazy(async () => ({ default: (await withCatalog(import('./shortcuts/shortcuts-dialog'))).ShortcutsDialog }));

const NAVIGATION_ID = 'main-navigation';
const MAIN_ID = 'main-content';

/** The icon of each page in the main navigation. */
const ICONS: Record<NavigationPageName, typeof IconSettings> = {
  settings: IconSettings,
  git: IconKey,
  conversations: IconMessages,
  sandboxes: IconBox,
  specs: IconStack2,
  users: IconUsers,
  audit: IconHistory,
  usage: IconChartBar,
};

const NAVIGATION = NAVIGATION_PAGES.map((name) => ({ name, to: PAGES[name].path, label: PAGE_TITLES[name], icon: ICONS[name] }));

export function Layout() {
  const { t, i18n } = useLingui();
  const [navOpen, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { session, expired } = useSessionState();
  const baseUrl = (session ?? expired)?.baseUrl ?? '';
  const hidden = useHiddenPages();
  const refused = useRefusedPage(pathname);
  const [shortcutsOn, setShortcutsOn] = useStoredFlag('agent-console:shortcuts', true);
  const [helpOpen, help] = useDisclosure(false);
  const [helpNeeded, setHelpNeeded] = useState(false);
  if (helpOpen && !helpNeeded) setHelpNeeded(true);
  useSettingsLanguage();
  const burger = useRef<HTMLButtonElement>(null);
  // Escape closes the narrow screen's navigation, and the focus goes back to its button.
  useEffect(() => {
    if (!navOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      burger.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [navOpen, close]);

  return (
    <>
      <a
        className={classes.skipLink}
        href={`#${MAIN_ID}`}
        onClick={(event) => {
          // Focus, not a hash in the URL: the router would take that for a navigation.
          event.preventDefault();
          document.getElementById(MAIN_ID)?.focus();
        }}
      >
        <Trans>Skip to content</Trans>
      </a>
      {/* react-remove-scroll's class: while a dialog locks the page's scroll, the header keeps its place. */}
      <header className={`${classes.header} right-scroll-bar-position`}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              ref={burger}
              opened={navOpen}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t`Toggle navigation`}
              aria-expanded={navOpen}
              aria-controls={NAVIGATION_ID}
            />
            <Title order={2} size="h4">
              Agent Console
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ServerBadge baseUrl={baseUrl} />
            {/* The browser's own tooltip: Mantine's would bring its positioning library into every page's first download. */}
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={help.open}
              aria-label={t`Keyboard shortcuts`}
              title={t`Keyboard shortcuts (?)`}
            >
              <IconKeyboard size={18} />
            </ActionIcon>
            <Button variant="subtle" size="compact-sm" leftSection={<IconLogout size={16} />} onClick={() => void navigate('/sign-out')}>
              <Trans>Sign out</Trans>
            </Button>
          </Group>
        </Group>
      </header>

      <nav id={NAVIGATION_ID} className={classes.navbar} data-open={navOpen || undefined} aria-label={t`Main`}>
        {/* The router's links, styled as Mantine's NavLink: Mantine's brings its collapse and transitions into every page's first download. */}
        {NAVIGATION.filter(({ name }) => !hidden.has(name)).map(({ to, label, icon: Icon }) => (
          <RouterNavLink key={to} to={to} className={classes.navLink} onClick={close}>
            <Icon size={18} stroke={1.6} aria-hidden />
            {i18n._(label)}
          </RouterNavLink>
        ))}
      </nav>

      <main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        <Suspense fallback={<PageSkeleton />}>{refused ? <NotForYourRole title={i18n._(PAGE_TITLES[refused])} /> : <Outlet />}</Suspense>
      </main>
      <Suspense fallback={null}>
        <ShortcutsListener enabled={shortcutsOn} onHelp={help.open} />
      </Suspense>
      {helpNeeded && (
        <Suspense fallback={null}>
          <ShortcutsDialog opened={helpOpen} onClose={help.close} enabled={shortcutsOn} onEnabledChange={setShortcutsOn} />
        </Suspense>
      )}
    </>
  );
}
