import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** "3 minutes ago" for a moment, with the exact time on hover. */
export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
  return relative.format(Math.round(seconds / size), unit);
}

/** How often a time this many seconds away is shown again: its words change no faster. */
const refreshMs = (seconds: number) => (seconds < 60 ? 1000 : seconds < 3600 ? 30_000 : 600_000);

/** A moment as `formatRelative` says it, kept current while it is shown ("5 seconds ago", then "6 seconds ago"…). */
export function RelativeTime({ iso, size = 'sm' }: { iso: string; size?: 'xs' | 'sm' }) {
  // Said against the clock at each render (a new `iso` too); the timer only renders it again.
  const [, rerender] = useState(0);
  const now = Date.now();
  const period = refreshMs(Math.abs(now - Date.parse(iso)) / 1000);
  useEffect(() => {
    const timer = setInterval(() => rerender((count) => count + 1), period);
    return () => clearInterval(timer);
  }, [period]);
  return (
    <Text span size={size} title={exact.format(new Date(iso))}>
      <time dateTime={iso}>{formatRelative(iso, now)}</time>
    </Text>
  );
}
