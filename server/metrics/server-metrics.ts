import { Registry } from 'prom-client';
import type { SandboxRuntimeName } from '../../src/contract/sandboxes';
import type { EventCollector } from '../services/events/event-collector';
import type { EventService } from '../services/events/event-service';
import type { LlmProxyService } from '../services/llm-proxy/llm-proxy-service';
import type { SandboxService } from '../services/sandboxes/sandbox-service';
import type { ConnectionPoolStats } from '../store/database';
import { conversationMetrics } from './conversation-metrics';
import { databaseMetrics } from './database-metrics';
import { LlmMetrics } from './llm-metrics';
import { processMetrics } from './process-metrics';
import { RequestMetrics } from './request-metrics';
import { sandboxMetrics } from './sandbox-metrics';

export interface MetricSources {
  /** This instance's id (the data dir's): every series carries it as `instance_id`. */
  instanceId: string;
  runtime: SandboxRuntimeName;
  sandboxes: SandboxService;
  collector: EventCollector;
  events: EventService;
  llmProxy: LlmProxyService;
  databasePool: () => ConnectionPoolStats;
}

/**
 * What `GET /metrics` shows, in Prometheus' text format: this instance's requests, sandboxes,
 * conversations, event collection, LLM use and database connections, and its process's own
 * metrics. Counters count from the instance's start; the rest is read at each scrape.
 */
export class ServerMetrics {
  readonly requests: RequestMetrics;
  readonly #shown: Registry;

  constructor(sources: MetricSources) {
    const own = new Registry();
    this.requests = new RequestMetrics(own);
    const llm = new LlmMetrics(own);
    sources.llmProxy.onCallMetered((call) => llm.count(call));
    sandboxMetrics(own, sources.sandboxes, sources.runtime);
    conversationMetrics(own, sources.collector, sources.events);
    databaseMetrics(own, sources.databasePool);
    // The process's metrics are shared by every app of a process; the label is this one's, put on as it is shown.
    this.#shown = Registry.merge([processMetrics(), own]);
    this.#shown.setDefaultLabels({ instance_id: sources.instanceId });
  }

  /** The `Content-Type` of `render`'s text. */
  get contentType(): string {
    return this.#shown.contentType;
  }

  /** Every metric as Prometheus' text format has it, read now. */
  render(): Promise<string> {
    return this.#shown.metrics();
  }
}
