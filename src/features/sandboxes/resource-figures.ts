import type { I18n } from '@lingui/core';

/** Bytes as the locale writes megabytes or gigabytes. */
export function formatBytes(i18n: I18n, bytes: number): string {
  const giga = bytes >= 1e9;
  return i18n.number(bytes / (giga ? 1e9 : 1e6), {
    style: 'unit',
    unit: giga ? 'gigabyte' : 'megabyte',
    maximumFractionDigits: giga ? 1 : 0,
  });
}

/** A CPU share (100 % is one CPU). */
export const formatCpu = (i18n: I18n, percent: number) => i18n.number(percent / 100, { style: 'percent', maximumFractionDigits: 0 });
