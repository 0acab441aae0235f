import { describe, expect, it } from 'vitest';
import { DemoClock } from './demo-clock';

const DAY_MS = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('DemoClock', () => {
  it('tells the real time outside at()', () => {
    const before = Date.now();
    const now = new DemoClock().now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('runs on from the date given to at(), also in what at() started in the background, each start with its own date', async () => {
    const clock = new DemoClock();
    const monthAgo = new Date(Date.now() - 30 * DAY_MS);
    const weekAgo = new Date(Date.now() - 7 * DAY_MS);
    const later = (date: Date) =>
      clock.at(date, async () => {
        await sleep(20);
        return clock.now().getTime() - date.getTime();
      });
    const [sinceMonthAgo, sinceWeekAgo] = await Promise.all([later(monthAgo), later(weekAgo)]);
    // Each saw its own date or a little after: never the real time, never the other's date.
    for (const elapsed of [sinceMonthAgo, sinceWeekAgo]) {
      expect(elapsed).toBeGreaterThanOrEqual(0);
      expect(elapsed).toBeLessThan(DAY_MS);
    }
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(DAY_MS);
  });
});
