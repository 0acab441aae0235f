import { useLingui } from '@lingui/react';
import { Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** The formatters of each language shown so far: building one reads the locale's data. */
const formatters = new Map<string, { relative: Intl.RelativeTimeFormat; exact: Intl.DateTimeFormat }>();

function formattersOf(locale: string) {
  let made = formatters.get(locale);
  if (!made) {
    made = {
      relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
      exact: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }),
    };
    formatters.set(locale, made);
  }
  return made;
}

/** "3 minutes ago" for a moment, in the console's language (`locale`). */
export function formatRelative(iso: string, now = Date.now(), locale = 'en'): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
  return formattersOf(locale).relative.format(Math.round(seconds / size), unit);
}

/** The clock relative times are said against: read each second while any is shown. */
let clockNow = Date.now();
const clockListeners = new Set<() => void>();
let clockTimer: ReturnType<typeof setInterval> | undefined;

/** The clock's time: as of its last tick while it runs, else now. */
const clockTime = () => (clockTimer ? clockNow : Date.now());

function subscribeToClock(listener: () => void): () => void {
  clockListeners.add(listener);
  if (!clockTimer) {
    clockNow = Date.now();
    clockTimer = setInterval(() => {
      clockNow = Date.now();
      for (const notify of clockListeners) notify();
    }, 1000);
  }
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size > 0) return;
    clearInterval(clockTimer);
    clockTimer = undefined;
  };
}

/** A moment as `formatRelative` says it in the console's language, with the exact time on hover, kept current while it is shown ("5 seconds ago", then "6 seconds ago"…); rendered again only when its words change. */
export function RelativeTime({ iso, size = 'sm' }: { iso: string; size?: 'xs' | 'sm' }) {
  const { locale } = useLingui().i18n;
  const text = useSyncExternalStore(subscribeToClock, () => formatRelative(iso, clockTime(), locale));
  return (
    <Text span size={size} title={formattersOf(locale).exact.format(new Date(iso))}>
      <time dateTime={iso}>{text}</time>
    </Text>
  );
}
