import { useLingui } from '@lingui/react/macro';
import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { LocaleProvider } from '../i18n/locale-provider';
import { NotificationsHost } from './notifications-host';
import { cssVariablesResolver, themeWith } from './theme';

/** Mantine with the console's theme, its close buttons named in the console's language. */
function ThemeProvider({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const theme = useMemo(() => themeWith({ closeDialog: t`Close dialog`, dismiss: t`Dismiss` }), [t]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      {children}
    </MantineProvider>
  );
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <LocaleProvider>
      <ThemeProvider>
        <NotificationsHost />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </ThemeProvider>
    </LocaleProvider>
  );
}
