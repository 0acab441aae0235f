import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SandboxCapacity } from '../contract/sandboxes';
import { renderView } from '../testing/render';
import { SandboxCapacityLine } from './sandbox-capacity';

const line = (capacity: SandboxCapacity) => {
  renderView(<SandboxCapacityLine capacity={capacity} />);
  return screen.getByTestId('sandbox-capacity').textContent;
};

describe('SandboxCapacityLine', () => {
  it("says the server's counts to its owner and admins, one sandbox as one", () => {
    expect(line({ running: 0, max_running: 1, sandboxes: 1, max_sandboxes: 20, scope: 'server' })).toBe(
      '0 of 1 sandbox running · 1 of 20 exist',
    );
  });

  it("says a member's own limit and counts, and that a start then pauses their oldest", () => {
    expect(line({ running: 1, max_running: 1, sandboxes: 2, max_sandboxes: 3, scope: 'user' })).toBe(
      'You may run 1 sandbox at once: 1 running · you have 2 of 3 — starting another pauses your oldest running one',
    );
  });
});
