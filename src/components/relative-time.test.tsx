import { i18n } from '@lingui/core';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderView } from '../testing/render';
import { RelativeTime } from './relative-time';

describe('RelativeTime', () => {
  afterEach(() => {
    vi.useRealTimers();
    i18n.activate('en');
  });

  it('keeps its words current while it is shown', () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-02T10:00:05Z') });
    renderView(<RelativeTime iso="2026-12-02T10:00:00Z" />);
    expect(screen.getByText('5 seconds ago')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText('6 seconds ago')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('1 minute ago')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('2 minutes ago')).toBeInTheDocument();
  });

  it("speaks the console's language, and switches with it", () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-02T10:00:05Z') });
    renderView(<RelativeTime iso="2026-12-02T10:00:00Z" />);
    act(() => i18n.loadAndActivate({ locale: 'de', messages: {} }));
    expect(screen.getByText('vor 5 Sekunden')).toBeInTheDocument();
    act(() => i18n.activate('fr'));
    expect(screen.getByText('il y a 5 secondes')).toBeInTheDocument();
  });
});
