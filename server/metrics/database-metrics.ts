import { Gauge, type Registry } from 'prom-client';
import type { ConnectionPoolStats } from '../store/database';

/** The database's connections, read at each scrape: PostgreSQL's pool, or SQLite's one connection. */
export function databaseMetrics(registry: Registry, stats: () => ConnectionPoolStats): void {
  const gauge = (name: string, help: string, read: (pool: ConnectionPoolStats) => number) =>
    new Gauge({
      name,
      help: `${help} Labelled with the dialect: on postgres the pool of this instance (besides it, one connection for event notices and one for its locks); on sqlite the one connection the server queues queries for.`,
      labelNames: ['dialect'],
      registers: [registry],
      collect() {
        const pool = stats();
        this.set({ dialect: pool.dialect }, read(pool));
      },
    });
  gauge('agent_console_database_pool_max_connections', 'The most connections the pool opens.', (pool) => pool.max);
  gauge('agent_console_database_pool_connections', 'Connections open now, busy or idle.', (pool) => pool.total);
  gauge('agent_console_database_pool_idle_connections', 'Connections open and idle now.', (pool) => pool.idle);
  gauge(
    'agent_console_database_pool_waiting_queries',
    'Queries (or transactions) waiting for a connection now: above 0 for long, the pool is too small or queries too slow.',
    (pool) => pool.waiting,
  );
}
