import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { useLingui } from '@lingui/react/macro';
import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
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
    <I18nProvider i18n={i18n}>
      <ThemeProvider>
        <NotificationsHost />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </ThemeProvider>
    </I18nProvider>
  );
}
