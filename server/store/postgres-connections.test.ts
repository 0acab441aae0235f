import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { GLOBAL_WORK_LOCK, INSTANCE_ID_LOCKS } from './instance-locks';
import { advisoryLockHolders } from '../testing/advisory-locks';
import { startTestApp, type TestApp } from '../testing/test-app';

/*
 * PostgreSQL ends the server's connections (a restart, an administrator, a proxy's idle timeout):
 * the server goes on, and takes its locks again.
 */

let t: TestApp | undefined;
/** A request that reads the database. */
const searchSandboxes = async (app: TestApp) => (await app.request({ method: 'GET', url: '/api/v1/sandboxes/search' })).statusCode;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** How many sessions on the app's database hold an advisory lock of `space` (the first of the two keys). */
const lockHolders = async (app: TestApp, space: number) => (await advisoryLockHolders(app.db, space)).length;

it('survives PostgreSQL ending every connection it has, responds again, and takes its locks again', async () => {
  t = await startTestApp({ database: 'postgres', listen: true, instanceTiming: { heartbeatMs: 100, quietMs: 30_000 } });
  const app = t;
  expect(await searchSandboxes(app)).toBe(200);
  expect(app.services.instances.holdsGlobalWork).toBe(true);

  const ended = await sql<{ ended: boolean }>`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(app.db);
  // The pool's idle connections, the session holding the locks, and the one receiving notices of new events.
  expect(ended.rows.length).toBeGreaterThanOrEqual(2);

  await expect.poll(() => searchSandboxes(app), { timeout: 10_000 }).toBe(200);
  await expect
    .poll(async () => [await lockHolders(app, INSTANCE_ID_LOCKS), await lockHolders(app, GLOBAL_WORK_LOCK[0])], { timeout: 10_000 })
    .toEqual([1, 1]);
  await expect.poll(() => app.services.instances.holdsGlobalWork, { timeout: 10_000 }).toBe(true);
});
