import { inject } from 'vitest';
import { createDatabase, dropDatabase } from './postgres';

export type DatabaseName = 'sqlite' | 'postgres';

/** The databases the store and service tests run on: `describe.each(databasesUnderTest())`. */
export const databasesUnderTest = (): DatabaseName[] => ['sqlite', 'postgres'];

/**
 * A fresh database on the run's PostgreSQL cluster (postgres-global-setup.ts), collating text
 * by ICU locale `icuLocale` if given; answers its URL and how to drop it.
 */
export async function freshPostgresDatabase(icuLocale?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('postgresAdminUrl');
  const url = await createDatabase(adminUrl, icuLocale);
  return { url, drop: () => dropDatabase(adminUrl, url) };
}
