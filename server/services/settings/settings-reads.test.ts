import type { CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseForCountedReads, databasesUnderTest } from '../../testing/databases';
import { addMember } from '../../testing/team-members';
import { startTestApp, type TestApp } from '../../testing/test-app';

/*
 * Most requests read the settings, and they change seldom: repeated reads are answered
 * from the cache (see store/cached-read.ts) until something is written. Counted, not timed: the
 * queries the database runs.
 */
describe.each(databasesUnderTest())('settings reads on %s', (database) => {
  let t: TestApp;
  let stopDatabase = () => {};
  let queries: CompiledQuery[] = [];
  afterEach(async () => {
    await t.close();
    stopDatabase();
  });

  /** The queries that read settings documents (a user's or the team's defaults) while `run` ran. */
  async function settingsReads(run: () => Promise<unknown>): Promise<number> {
    queries = [];
    await run();
    return queries.filter((query) => /^select .* from "user_settings"/i.test(query.sql)).length;
  }

  const getSettings = (key?: string) =>
    t.request({ method: 'GET', url: '/api/settings', headers: key ? { 'x-session-api-key': key } : {} }).then((response) => {
      expect(response.statusCode).toBe(200);
    });

  it('are read once for the owner, a member with team defaults and two users in turn, and again after a write', async () => {
    // No heartbeat during the test: any write, its own too, makes the next read read (as it must).
    const instanceTiming = { heartbeatMs: 600_000, quietMs: 1_200_000 };
    const { databaseUrl, stop } = await databaseForCountedReads(database);
    stopDatabase = stop;
    t = await startTestApp({
      databaseUrl,
      observeQueries: (query) => queries.push(query),
      instanceTiming,
    });
    expect((await t.postSettings({ llm_model: 'openai/gpt-4o' })).statusCode).toBe(200);
    const defaults = await t.request({
      method: 'PATCH',
      url: '/api/organizations/default/settings',
      payload: { llm_model: 'anthropic/claude-sonnet-4-5' },
    });
    expect(defaults.statusCode).toBe(200);
    const alice = await addMember(t, 'alice@example.com', 'member');
    const bob = await addMember(t, 'bob@example.com', 'member');

    // The owner's document and the team's, once each; ten more requests read neither.
    expect(await settingsReads(() => getSettings())).toBeLessThanOrEqual(2);
    expect(
      await settingsReads(async () => {
        for (let i = 0; i < 10; i++) await getSettings();
      }),
    ).toBe(0);

    // A member with the team's defaults: her document and the team's, once (her key's first use is
    // written, and a cache sees every write).
    expect(await settingsReads(() => getSettings(alice.key))).toBeLessThanOrEqual(2);
    expect(
      await settingsReads(async () => {
        for (let i = 0; i < 10; i++) await getSettings(alice.key);
      }),
    ).toBe(0);

    // Three users in turn keep each other's reads (each read once after the last write: bob's key's first use).
    const users = [bob.key, alice.key, undefined];
    expect(
      await settingsReads(async () => {
        for (const key of users) await getSettings(key);
      }),
    ).toBeLessThanOrEqual(4);
    expect(
      await settingsReads(async () => {
        for (let i = 0; i < 5; i++) for (const key of users) await getSettings(key);
      }),
    ).toBe(0);

    // A write is seen at once: the next read reads.
    expect((await t.postSettings({ llm_model: 'openai/gpt-4.1' })).statusCode).toBe(200);
    expect(await settingsReads(() => getSettings())).toBeGreaterThan(0);
    expect((await t.getSettings()).json().llm_model).toBe('openai/gpt-4.1');
  });
});
