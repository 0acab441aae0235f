import { ActionIcon, AppShell, Burger, Button, Group, NavLink, Title, Tooltip } from '@mantine/core';
import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import { IconBox, IconKey, IconKeyboard, IconLogout, IconMessages, IconSettings, IconStack2 } from '@tabler/icons-react';
import { Suspense } from 'react';
import { NavLink as RouterNavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useSessionState } from '../features/auth/use-session';
import { PageSkeleton } from './page-skeleton';
import { ServerBadge } from './server-badge';
import { ShortcutsDialog } from './shortcuts/shortcuts-dialog';
import { useShortcuts } from './shortcuts/use-shortcuts';

const NAVIGATION = [
  { to: '/settings', label: 'Settings', icon: IconSettings },
  { to: '/git', label: 'Git & secrets', icon: IconKey },
  { to: '/conversations', label: 'Conversations', icon: IconMessages },
  { to: '/sandboxes', label: 'Sandboxes', icon: IconBox },
  { to: '/sandbox-specs', label: 'Sandbox specs', icon: IconStack2 },
];

export function Layout() {
  const [navOpen, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { session, expired } = useSessionState();
  const baseUrl = (session ?? expired)?.baseUrl ?? '';
  const [shortcutsOn, setShortcutsOn] = useLocalStorage({
    key: 'agent-console:shortcuts',
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  const [helpOpen, help] = useDisclosure(false);
  useShortcuts(shortcutsOn, help.open);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navOpen } }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpen} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={2} size="h4">
              Agent Console
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ServerBadge baseUrl={baseUrl} />
            <Tooltip label="Keyboard shortcuts (?)">
              <ActionIcon variant="subtle" color="gray" onClick={help.open} aria-label="Keyboard shortcuts">
                <IconKeyboard size={18} />
              </ActionIcon>
            </Tooltip>
            <Button variant="subtle" size="compact-sm" leftSection={<IconLogout size={16} />} onClick={() => void navigate('/sign-out')}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label="Main">
        {NAVIGATION.map(({ to, label, icon: Icon }) => (
          <NavLink
            key={to}
            component={RouterNavLink}
            to={to}
            label={label}
            leftSection={<Icon size={18} stroke={1.6} />}
            active={pathname === to || pathname.startsWith(`${to}/`)}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>

      <AppShell.Main>
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <ShortcutsDialog opened={helpOpen} onClose={help.close} enabled={shortcutsOn} onEnabledChange={setShortcutsOn} />
    </AppShell>
  );
}
