import { createRequire } from 'node:module';
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Axe's minified build, for the page: the package's own `source` is its unminified one. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * An axe scan of what the page shows now. Only violations are gathered in full: passes and
 * incomplete checks are what make a scan slow. Legacy mode: axe.run in the page itself; the
 * default finishes each scan in a new blank page, with axe injected again there, and the console
 * has no frames for it to gather from. Axe is put in a document once, before its first scan:
 * AxeBuilder evaluates its source at each scan, twice in legacy mode, which in the tests'
 * interpreter-only browser took longer than the scan itself.
 */
class DocumentScan extends AxeBuilder {
  readonly #page: Page;

  constructor(page: Page) {
    // A source that does nothing: axe is in the page already when the builder evaluates it.
    super({ page, axeSource: ';' });
    this.#page = page;
  }

  override async analyze() {
    if (!(await this.#page.evaluate(() => 'axe' in window))) await this.#page.evaluate(AXE_SOURCE);
    return super.analyze();
  }
}

export const axeScan = (page: Page) => new DocumentScan(page).options({ resultTypes: ['violations'] }).setLegacyMode();

/** Axe's serious and critical findings of a scan, as readable lines. */
export const seriousFindings = (scan: Awaited<ReturnType<AxeBuilder['analyze']>>) =>
  scan.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target} ${n.failureSummary}`).join(', ')}`);
