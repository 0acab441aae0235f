import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape, type Scraped } from '../testing/metrics-scrape';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../testing/test-app';

/*
 * The Grafana dashboard (docs/grafana-dashboard.json) and the metrics docs/deploy.md lists are
 * held to what GET /metrics serves: a metric renamed or dropped fails here, not on someone's screen.
 */

interface Target {
  refId: string;
  expr: string;
  datasource: { type: string; uid: string };
}

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { type: string; uid: string };
  targets?: Target[];
}

const docs = path.join(import.meta.dirname, '../../docs');
const dashboard = JSON.parse(fs.readFileSync(path.join(docs, 'grafana-dashboard.json'), 'utf8')) as {
  uid: string;
  title: string;
  schemaVersion: number;
  templating: { list: { name: string; type: string; query?: unknown }[] };
  panels: Panel[];
};
const SUFFIXES = ['', '_bucket', '_count', '_sum'];
const METRIC_NAME = /\b(?:agent_console|process|nodejs)_[a-z0-9_]+/g;

let t: TestApp;
let scraped: Scraped;
beforeAll(async () => {
  t = await startTestApp();
  // One request and one sandbox-less scrape, so the histogram has series.
  await t.request({ method: 'GET', url: '/api/settings' });
  scraped = await scrape(t, TEST_SESSION_KEY);
});
afterAll(() => t.close());

/** Whether `name` is a series of a metric the server serves (a histogram's `_bucket`, `_count`, `_sum` too). */
const served = (name: string) =>
  SUFFIXES.some((suffix) => name.endsWith(suffix) && scraped.metrics[name.slice(0, name.length - suffix.length)] !== undefined);

describe('the Grafana dashboard', () => {
  it('queries only metrics the server serves', () => {
    const queried = dashboard.panels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => target.expr.match(METRIC_NAME) ?? []));
    expect(queried.length).toBeGreaterThan(10);
    expect(queried.filter((name) => !served(name))).toEqual([]);
    // Each kind of what the server shows has a panel.
    for (const metric of [
      'agent_console_http_request_duration_seconds_count',
      'agent_console_http_request_duration_seconds_bucket',
      'agent_console_sandboxes',
      'agent_console_running_conversations',
      'agent_console_llm_tokens_total',
      'agent_console_llm_cost_usd_total',
      'agent_console_event_collection_lag_seconds',
      'agent_console_database_pool_waiting_queries',
    ])
      expect(queried).toContain(metric);
  });

  it('is a dashboard Grafana imports: unique panel ids, each panel placed, every query on the chosen Prometheus', () => {
    expect(dashboard).toMatchObject({ uid: 'agent-console', title: 'Agent Console' });
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.templating.list.find((variable) => variable.name === 'datasource')).toMatchObject({
      type: 'datasource',
      query: 'prometheus',
    });
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      const refIds = panel.targets!.map((target) => target.refId);
      expect(new Set(refIds).size, panel.title).toBe(refIds.length);
      for (const target of panel.targets!) expect(target.datasource, panel.title).toEqual(panel.datasource);
    }
  });
});

describe('the metrics docs/deploy.md lists', () => {
  it('are the ones the server serves', () => {
    const listed = new Set(fs.readFileSync(path.join(docs, 'deploy.md'), 'utf8').match(/\bagent_console_[a-z0-9_]+/g));
    const own = Object.keys(scraped.metrics).filter((name) => name.startsWith('agent_console_'));
    expect([...listed].filter((name) => !served(name))).toEqual([]);
    expect(own.filter((name) => !listed.has(name))).toEqual([]);
  });
});
