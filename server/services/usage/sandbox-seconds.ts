const DAY_MS = 86_400_000;

/**
 * The seconds of the stretch `[start, end)` (ISO times) that fall in `[from, to)`, per UTC day
 * (`YYYY-MM-DD`): a sandbox that ran over midnight counts on both days.
 */
export function secondsByDay(start: string, end: string, from: string, to: string): Map<string, number> {
  const days = new Map<string, number>();
  let at = Math.max(Date.parse(start), Date.parse(from));
  const until = Math.min(Date.parse(end), Date.parse(to));
  while (at < until) {
    const midnight = (Math.floor(at / DAY_MS) + 1) * DAY_MS;
    const stop = Math.min(midnight, until);
    const day = new Date(at).toISOString().slice(0, 10);
    days.set(day, (days.get(day) ?? 0) + (stop - at) / 1000);
    at = stop;
  }
  return days;
}
