import { Text } from '@mantine/core';

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

export function RelativeTime({ iso, size = 'sm' }: { iso: string; size?: 'xs' | 'sm' }) {
  return (
    <Text span size={size} title={exact.format(new Date(iso))}>
      <time dateTime={iso}>{formatRelative(iso)}</time>
    </Text>
  );
}
