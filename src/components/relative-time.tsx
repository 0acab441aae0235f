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

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** "3 minutes ago" for a moment, with the exact time on hover. */
export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
  return relative.format(Math.round(seconds / size), unit);
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

/** A moment as `formatRelative` says it, kept current while it is shown ("5 seconds ago", then "6 seconds ago"…); rendered again only when its words change. */
export function RelativeTime({ iso, size = 'sm' }: { iso: string; size?: 'xs' | 'sm' }) {
  const text = useSyncExternalStore(subscribeToClock, () => formatRelative(iso, clockTime()));
  return (
    <Text span size={size} title={exact.format(new Date(iso))}>
      <time dateTime={iso}>{text}</time>
    </Text>
  );
}
