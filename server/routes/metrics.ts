import type { FastifyPluginAsync } from 'fastify';
import { requireMetricsReader } from '../http/metrics-access';
import type { ServerMetrics } from '../metrics/server-metrics';
import type { Identities } from '../services/team/identities';

export interface MetricsRouteOptions {
  metrics: ServerMetrics;
  sessionKey: string;
  identities: Identities;
  /** METRICS_TOKEN: a key for scrapers alone; without it only owners' and admins' keys read the metrics. */
  metricsToken?: string;
}

/** `GET /metrics` (outside `/api`, where Prometheus looks): this instance's metrics in Prometheus' text format. */
export function metricsRoutes({ metrics, sessionKey, identities, metricsToken }: MetricsRouteOptions): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', requireMetricsReader(sessionKey, identities, metricsToken));
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(metrics.contentType)
        .header('cache-control', 'no-store')
        .send(await metrics.render()),
    );
  };
}
