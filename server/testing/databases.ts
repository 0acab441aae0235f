import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { type Db, openSqlite } from '../store/database';
import { createDatabase, dropDatabase, startPostgresCluster } from './postgres';

export type DatabaseName = 'sqlite' | 'postgres';

/**
 * The databases the store and service tests run on: `describe.each(databasesUnderTest())`;
 * PostgreSQL only when the run has a cluster (TEST_POSTGRES=1, see postgres-global-setup.ts).
 */
export const databasesUnderTest = (): DatabaseName[] => (inject('postgresAdminUrl') ? ['sqlite', 'postgres'] : ['sqlite']);

/** PostgreSQL alone, when the run has it: `describe.each(onlyPostgres())` for what SQLite has no counterpart of. */
export const onlyPostgres = (): DatabaseName[] => databasesUnderTest().filter((database) => database === 'postgres');

/**
 * A fresh database on the run's PostgreSQL cluster (postgres-global-setup.ts): empty, collating
 * text by ICU locale `icuLocale` if given, or with the schema up to date (`migrated`); returns its
 * URL and how to drop it.
 */
export async function freshPostgresDatabase({ icuLocale, migrated = false }: { icuLocale?: string; migrated?: boolean } = {}): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl) throw new Error('This run has no PostgreSQL cluster: set TEST_POSTGRES=1 (npm test does)');
  const template = migrated ? inject('postgresMigratedTemplate') : undefined;
  const url = await (icuLocale ? createDatabase(adminUrl, { icuLocale }) : copyMadeAhead(adminUrl, template));
  return { url, drop: () => dropDatabase(adminUrl, url) };
}

/** How many copies of a template each worker keeps made ahead. */
const COPIES_AHEAD = 2;
/** Copies of each template (by name; `''` for PostgreSQL's own) on their way, per worker process. */
const copiesAhead = new Map<string, Promise<string>[]>();

/**
 * A new copy of `template` (of template1 when absent), made while earlier tests ran: CREATE
 * DATABASE waits for two checkpoints, half a second on a busy machine, which a test would
 * otherwise wait for each time. Each copy is still used once, by one test.
 */
function copyMadeAhead(adminUrl: string, template: string | undefined): Promise<string> {
  const queue = copiesAhead.get(template ?? '') ?? [];
  copiesAhead.set(template ?? '', queue);
  while (queue.length <= COPIES_AHEAD) {
    const copy = createDatabase(adminUrl, { template });
    // A failure is reported to the test that takes this copy, not as an unhandled rejection meanwhile.
    copy.catch(() => undefined);
    queue.push(copy);
  }
  return queue.shift()!;
}

/** Runs `test` on a SQLite database of its own (in `dir`), removed afterwards. */
export async function onOwnSqlite(test: (db: Db, dir: string) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-sqlite-'));
  const db = openSqlite(dir);
  try {
    await test(db, dir);
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * For a test that counts reads: nothing (SQLite in the app's data dir), or on PostgreSQL a database
 * on a cluster of its own. Cached reads there stand while the cluster's snapshot does, which the
 * run's other tests, writing to their databases on the shared cluster, would keep moving.
 */
export async function databaseForCountedReads(database: DatabaseName): Promise<{ databaseUrl?: string; stop: () => void }> {
  if (database === 'sqlite') return { stop: () => {} };
  const cluster = await startPostgresCluster();
  return { databaseUrl: await createDatabase(cluster.adminUrl), stop: cluster.stop };
}
