import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's throwaway PostgreSQL cluster (postgres://… to its `postgres` database): tests make databases on it. */
    postgresAdminUrl: string;
  }
}

/**
 * One PostgreSQL cluster for the whole run; the store and service tests run on it as well as on
 * SQLite. PostgreSQL is a dependency of the tests like chromium: when it does not start, the run fails.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return cluster.stop;
}
