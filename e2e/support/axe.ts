import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * An axe scan of what the page shows now. Only violations are gathered in full: passes and
 * incomplete checks are what make a scan slow. Legacy mode: axe.run in the page itself; the
 * default finishes each scan in a new blank page, with axe injected again there, and the console
 * has no frames for it to gather from.
 */
export const axeScan = (page: Page) => new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode();

/** Axe's serious and critical findings of a scan, as readable lines. */
export const seriousFindings = (scan: Awaited<ReturnType<AxeBuilder['analyze']>>) =>
  scan.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target} ${n.failureSummary}`).join(', ')}`);
