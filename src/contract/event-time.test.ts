import { describe, expect, it } from 'vitest';
import { utcEventTime } from './events';

describe('utcEventTime', () => {
  it('writes an event time in UTC to the microsecond, however it came', () => {
    expect(utcEventTime('2025-05-01T10:00:00.123456')).toBe('2025-05-01T10:00:00.123456Z');
    expect(utcEventTime('2025-05-01T12:00:00.123004+02:00')).toBe('2025-05-01T10:00:00.123004Z');
    expect(utcEventTime('2025-05-01T10:00:00.123Z')).toBe('2025-05-01T10:00:00.123000Z');
    expect(utcEventTime('2025-05-01T10:00:00Z')).toBe('2025-05-01T10:00:00.000000Z');
    expect(utcEventTime('not a time')).toBeUndefined();
  });

  it('orders times of one millisecond as text', () => {
    const times = ['2025-05-01T10:00:00.1237', '2025-05-01T10:00:00.123004Z', '2025-05-01T12:00:00.12345+02:00'];
    expect(times.map((time) => utcEventTime(time)!).sort()).toEqual([
      '2025-05-01T10:00:00.123004Z',
      '2025-05-01T10:00:00.123450Z',
      '2025-05-01T10:00:00.123700Z',
    ]);
  });
});
