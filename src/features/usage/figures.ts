import type { I18n } from '@lingui/core';

/** Dollars as the locale writes them: cents, or finer below a cent. */
export const formatCost = (i18n: I18n, amount: number) => {
  const digits = amount !== 0 && Math.abs(amount) < 0.01 ? 4 : 2;
  return i18n.number(amount, { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
};

/** A count as the locale writes it, compact when large (12.3K). */
export const formatCount = (i18n: I18n, count: number) =>
  i18n.number(count, count >= 10_000 ? { notation: 'compact', maximumFractionDigits: 1 } : {});

/** Hours, to a tenth. */
export const formatHours = (i18n: I18n, seconds: number) => i18n.number(seconds / 3600, { maximumFractionDigits: 1 });

/** A name a person knows a user by. */
export const userLabel = (user: { name: string | null; email: string | null; user_id: string }) => user.name || user.email || user.user_id;

const DAY_MS = 86_400_000;

/** The UTC day `days` after `day` (before, when negative). */
export const shiftDay = (day: string, days: number) => {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date) + days * DAY_MS).toISOString().slice(0, 10);
};

/** Today, as the server counts days (UTC). */
export const today = () => new Date().toISOString().slice(0, 10);
