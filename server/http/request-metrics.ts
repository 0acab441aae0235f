import type { FastifyInstance } from 'fastify';
import type { RequestMetrics } from '../metrics/request-metrics';

/**
 * Counts every request the app answers, by the route pattern it matched (never its URL) and its
 * status, with the time Fastify measured from its arrival to the response's end.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: RequestMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
