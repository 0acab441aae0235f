import type { TestProject } from 'vitest/node';
import { migrateToLatest, openPostgres } from '../store/database';
import { createTemplateDatabase, startPostgresCluster } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's throwaway PostgreSQL cluster (postgres://… to its `postgres` database), when TEST_POSTGRES=1: tests make databases on it. */
    postgresAdminUrl?: string;
    /** A database on it with the schema up to date, to copy: a test app's database is made from it, not migrated each time. */
    postgresMigratedTemplate?: string;
  }
}

/**
 * With TEST_POSTGRES=1 (`npm test` sets it), one PostgreSQL cluster for the whole run, and the
 * store and service tests run on it as well as on SQLite. PostgreSQL is then a dependency of the
 * tests like chromium: when it does not start, the run fails. Without it, SQLite only.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (!process.env.TEST_POSTGRES) return undefined;
  const cluster = await startPostgresCluster();
  try {
    const template = await createTemplateDatabase(cluster.adminUrl, async (url) => {
      const db = openPostgres(url);
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
    });
    project.provide('postgresMigratedTemplate', template);
  } catch (error) {
    cluster.stop();
    throw error;
  }
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return cluster.stop;
}
