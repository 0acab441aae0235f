import { QueryObserver, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSessionState } from '../features/auth/use-session';
import { activeLocale, switchLocale } from '../i18n/catalogs';
import { browserLocale, rememberLocale } from '../i18n/chosen-locale';
import { type ConsoleLocale, consoleLocaleOf, SOURCE_LOCALE } from '../i18n/locales';
import { serverCapabilityKeys } from '../queries/server-capabilities';

/**
 * The console's language for a Settings `language`: itself; the browser's when none is chosen;
 * English when the console has no strings in it (the agent still answers in it).
 */
export function localeForSettings(language: string | null | undefined): ConsoleLocale {
  if (!language) return browserLocale();
  return consoleLocaleOf(language) ?? SOURCE_LOCALE;
}

/**
 * Shows the console in the user's Settings language, and switches at once when they save another
 * (the save updates the cached settings this follows). The settings' code and schema are fetched
 * after the first render, so no page but Settings carries them in its first download.
 */
export function useSettingsLanguage(): void {
  const queryClient = useQueryClient();
  const { session } = useSessionState();
  const signedIn = session !== undefined;
  useEffect(() => {
    if (!signedIn) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    const follow = (language: string | null | undefined) => {
      const locale = localeForSettings(language);
      rememberLocale(locale);
      if (locale === activeLocale()) return;
      // The server's document words its reasons (a field not used) in the language asked for.
      void switchLocale(locale).then(() => queryClient.invalidateQueries({ queryKey: serverCapabilityKeys.features() }));
    };
    void import('../queries/settings').then(({ settingsQuery }) => {
      if (cancelled) return;
      const observer = new QueryObserver(queryClient, settingsQuery());
      stop = observer.subscribe(({ data }) => {
        if (data !== undefined) follow(data?.language);
      });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient, signedIn]);
}
