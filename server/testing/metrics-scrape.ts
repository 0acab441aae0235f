import { getMetricsFromIterator, type PromData, type PromHistogramData, type PromMetric, type PromMetrics } from 'prom2javascript';
import type { TestApp } from './test-app';

/** `GET /metrics` of `t` with `key` as a bearer token, read by a Prometheus text-format parser; throws unless it is a 200. */
export async function scrape(t: TestApp, key: string): Promise<Scraped> {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${key}` } });
  if (response.statusCode !== 200) throw new Error(`GET /metrics: ${response.statusCode} ${response.body}`);
  // prom-client writes NaN as `Nan` (the event loop's mean delay between two scrapes close together); Prometheus reads it, the parser does not.
  const lines = response.body.split('\n').filter((line) => !/ Nan$/.test(line));
  return new Scraped(await getMetricsFromIterator(lines[Symbol.iterator]()));
}

const matches = (sample: { labels: Record<string, string> }, labels: Record<string, string>) =>
  Object.entries(labels).every(([name, value]) => sample.labels[name] === value);

/** A scrape's metrics, and their samples by labels. */
export class Scraped {
  constructor(readonly metrics: PromMetrics) {}

  metric(name: string): PromMetric {
    const found = this.metrics[name];
    if (!found) throw new Error(`no metric ${name}`);
    return found;
  }

  /** Every sample of every metric, with its metric's name. */
  everySample(): { name: string; labels: Record<string, string> }[] {
    return Object.entries(this.metrics).flatMap(([name, metric]) => metric.data.map(({ labels }) => ({ name, labels })));
  }

  /** The samples of counter or gauge `name` that have every label of `labels` (and any others). */
  samples(name: string, labels: Record<string, string> = {}): PromData[] {
    return (this.metric(name).data as PromData[]).filter((sample) => matches(sample, labels));
  }

  /** The value of the one sample of counter or gauge `name` with `labels`; 0 when there is none (a series not counted yet). */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.samples(name, labels);
    if (found.length > 1) throw new Error(`${found.length} samples of ${name} with ${JSON.stringify(labels)}`);
    return found[0]?.value ?? 0;
  }

  /** The one sample of histogram `name` with `labels`; undefined when there is none. */
  histogram(name: string, labels: Record<string, string>): PromHistogramData | undefined {
    const found = (this.metric(name).data as PromHistogramData[]).filter((sample) => matches(sample, labels));
    if (found.length > 1) throw new Error(`${found.length} samples of ${name} with ${JSON.stringify(labels)}`);
    return found[0];
  }
}
