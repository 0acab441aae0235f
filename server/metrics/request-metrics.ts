import { Histogram, type Registry } from 'prom-client';

/** Seconds: most API requests take milliseconds; starts and streams take longer. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The route label of a request that matched no route (a 404): never its URL, which anyone may vary. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Every HTTP request the server answered, by route pattern and status, with how long the answer took. */
export class RequestMetrics {
  readonly #duration: Histogram<'method' | 'route' | 'status_code'>;

  constructor(registry: Registry) {
    this.#duration = new Histogram({
      name: 'agent_console_http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route pattern (such as /api/v1/sandboxes/:sandbox_id; "unmatched" for a request no route matched) and status code, by the seconds from receiving the request to the end of the response. Its _count is the number of requests. An event stream counts when it closes.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  /** One request answered: `route` is the pattern it matched (undefined: none), `seconds` how long it took. */
  observe(method: string, route: string | undefined, statusCode: number, seconds: number): void {
    this.#duration.observe({ method, route: route ?? UNMATCHED_ROUTE, status_code: String(statusCode) }, seconds);
  }
}
