import type { CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseForCountedReads, databasesUnderTest } from '../../testing/databases';
import { addMember } from '../../testing/team-members';
import { startTestApp, type TestApp } from '../../testing/test-app';

/*
 * Every request signed in with an API key reads its key and its user. Repeated
 * requests find both in the cache (store/cached-read.ts) until something is written. Counted,
 * not timed: the queries the database runs.
 */
describe.each(databasesUnderTest())('identity reads on %s', (database) => {
  let t: TestApp;
  let stopDatabase = () => {};
  afterEach(async () => {
    await t.close();
    stopDatabase();
  });

  it('read a member’s key and user once, not per request, and again after a write', async () => {
    const queries: CompiledQuery[] = [];
    // No heartbeat during the test: any write makes the next read read (as it must).
    const { databaseUrl, stop } = await databaseForCountedReads(database);
    stopDatabase = stop;
    t = await startTestApp({
      databaseUrl,
      observeQueries: (query) => queries.push(query),
      instanceTiming: { heartbeatMs: 600_000, quietMs: 1_200_000 },
    });
    const alice = await addMember(t, 'alice@example.com', 'member');
    const bob = await addMember(t, 'bob@example.com', 'member');
    const identityReads = async (keys: string[]) => {
      queries.length = 0;
      for (const key of keys) {
        const response = await t.request({ method: 'GET', url: '/api/v1/app-conversations/count', headers: { 'x-session-api-key': key } });
        expect(response.statusCode).toBe(200);
      }
      return queries.filter((query) => /^select .* from "(api_keys|users)"/i.test(query.sql)).length;
    };

    // Each key's first use is written (its last use), and a cache sees every write: read again once after it.
    expect(await identityReads([alice.key, bob.key])).toBeGreaterThan(0);
    expect(await identityReads([alice.key, bob.key])).toBeLessThanOrEqual(4);
    expect(await identityReads(Array.from({ length: 10 }, (_, i) => (i % 2 ? alice.key : bob.key)))).toBe(0);

    // A disabled member is refused at once: the write is seen.
    const disabled = await t.request({
      method: 'PATCH',
      url: `/api/organizations/default/members/${bob.userId}`,
      payload: { status: 'disabled' },
    });
    expect(disabled.statusCode).toBe(200);
    const refused = await t.request({ method: 'GET', url: '/api/v1/app-conversations/count', headers: { 'x-session-api-key': bob.key } });
    expect(refused.statusCode).toBe(401);
  });
});
