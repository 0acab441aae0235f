import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageSchema } from '../../../src/contract/usage';
import { sessionKeyCaller } from '../../authz/caller';
import { databasesUnderTest } from '../../testing/databases';
import { addMember, type TestMember } from '../../testing/team-members';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../../testing/test-app';

const get = (t: TestApp, url: string, key: string) => t.app.inject({ method: 'GET', url, headers: { 'x-session-api-key': key } });
const usageOf = async (t: TestApp, query: string, key = TEST_SESSION_KEY) => {
  const response = await get(t, `/api/usage?${query}`, key);
  expect(response.statusCode, response.body).toBe(200);
  return usageSchema.parse(response.json());
};

const call = (user: string, model: string | null, at: string, cost: number | null, tokens = [100, 20, 10]) => ({
  user_id: user,
  conversation_id: `c-${user}`,
  model,
  status: 200,
  prompt_tokens: tokens[0]!,
  completion_tokens: tokens[1]!,
  cache_read_tokens: tokens[2]!,
  cost,
  created_at: at,
});

describe.each(databasesUnderTest())('usage and cost on %s', (database) => {
  let t: TestApp;
  let alice: TestMember;
  let bob: TestMember;
  let admin: TestMember;

  beforeAll(async () => {
    t = await startTestApp({ database });
    alice = await addMember(t, 'alice@example.com', 'member');
    bob = await addMember(t, '=bob@example.com', 'member');
    admin = await addMember(t, 'admin@example.com', 'admin');
    await t.db
      .insertInto('llm_calls')
      .values([
        call(alice.userId, 'gpt-4o', '2026-03-01T10:00:00.000Z', 0.5),
        call(alice.userId, 'gpt-4o', '2026-03-01T23:59:59.000Z', 0.25),
        call(alice.userId, 'claude', '2026-03-03T08:00:00.000Z', 1),
        call(alice.userId, null, '2026-03-03T08:00:00.000Z', null),
        call(bob.userId, 'gpt-4o', '2026-03-02T12:00:00.000Z', 2, [1000, 200, 0]),
        // Outside the range.
        call(bob.userId, 'gpt-4o', '2026-02-28T23:59:59.999Z', 100),
        call(bob.userId, 'gpt-4o', '2026-03-04T00:00:00.000Z', 100),
      ])
      .execute();
    await t.db
      .insertInto('sandbox_runs')
      .values([
        // Two hours over midnight into the range's first day, and 90 minutes of its last day.
        {
          sandbox_id: 's1',
          user_id: alice.userId,
          runtime: 'process',
          started_at: '2026-02-28T23:00:00.000Z',
          ended_at: '2026-03-01T01:00:00.000Z',
          open: 0,
        },
        // Half an hour either side of a midnight inside the range.
        {
          sandbox_id: 's3',
          user_id: alice.userId,
          runtime: 'process',
          started_at: '2026-03-02T23:30:00.000Z',
          ended_at: '2026-03-03T00:30:00.000Z',
          open: 0,
        },
        {
          sandbox_id: 's2',
          user_id: bob.userId,
          runtime: 'docker',
          started_at: '2026-03-03T22:30:00.000Z',
          ended_at: '2026-03-04T02:00:00.000Z',
          open: 1,
        },
      ])
      .execute();
    await t.db
      .insertInto('conversation_starts')
      .values([
        { user_id: alice.userId, conversation_id: 'c1', created_at: '2026-03-01T09:00:00.000Z' },
        { user_id: alice.userId, conversation_id: 'c2', created_at: '2026-03-01T11:00:00.000Z' },
        { user_id: bob.userId, conversation_id: 'c3', created_at: '2026-03-02T11:00:00.000Z' },
      ])
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('adds up LLM calls, sandbox time and starts per UTC day, user and model, with every day of the range', async () => {
    const usage = await usageOf(t, 'from=2026-03-01&to=2026-03-03', admin.key);
    expect(usage.days).toEqual([
      {
        day: '2026-03-01',
        calls: 2,
        prompt_tokens: 200,
        completion_tokens: 40,
        cache_read_tokens: 20,
        cost: 0.75,
        sandbox_seconds: 3600,
        conversations: 2,
      },
      {
        day: '2026-03-02',
        calls: 1,
        prompt_tokens: 1000,
        completion_tokens: 200,
        cache_read_tokens: 0,
        cost: 2,
        sandbox_seconds: 1800,
        conversations: 1,
      },
      {
        day: '2026-03-03',
        calls: 2,
        prompt_tokens: 200,
        completion_tokens: 40,
        cache_read_tokens: 20,
        cost: 1,
        sandbox_seconds: 7200,
        conversations: 0,
      },
    ]);
    expect(usage.totals).toEqual({
      calls: 5,
      prompt_tokens: 1400,
      completion_tokens: 280,
      cache_read_tokens: 40,
      cost: 3.75,
      sandbox_seconds: 12_600,
      conversations: 3,
    });
    expect(usage.users.map((user) => [user.email, user.cost, user.sandbox_seconds, user.conversations])).toEqual([
      ['=bob@example.com', 2, 5400, 1],
      ['alice@example.com', 1.75, 7200, 2],
    ]);
    expect(usage.models.map((model) => [model.model, model.calls, model.cost])).toEqual([
      ['gpt-4o', 3, 2.75],
      ['claude', 1, 1],
      ['unknown', 1, 0],
    ]);
    expect(usage.runtimes).toEqual(
      expect.arrayContaining([
        { runtime: 'process', sandbox_seconds: 7200 },
        { runtime: 'docker', sandbox_seconds: 5400 },
      ]),
    );
    expect(usage.by_user_day).toContainEqual({ day: '2026-03-02', user_id: bob.userId, cost: 2, tokens: 1200, sandbox_seconds: 0 });
    expect(usage.by_model_day).toContainEqual({ day: '2026-03-01', model: 'gpt-4o', cost: 0.75, tokens: 240 });
  });

  it("shows a member their own figures only, and another user's not at all", async () => {
    const own = await usageOf(t, 'from=2026-03-01&to=2026-03-03', bob.key);
    expect(own.user_id).toBe(bob.userId);
    expect(own.users.map((user) => user.user_id)).toEqual([bob.userId]);
    expect(own.totals.cost).toBe(2);
    expect((await get(t, `/api/usage?from=2026-03-01&to=2026-03-03&user_id=${alice.userId}`, bob.key)).statusCode).toBe(404);
    expect((await get(t, `/api/usage/csv?user_id=${alice.userId}`, bob.key)).statusCode).toBe(404);

    const chosen = await usageOf(t, `from=2026-03-01&to=2026-03-03&user_id=${alice.userId}`, TEST_SESSION_KEY);
    expect(chosen.users.map((user) => user.user_id)).toEqual([alice.userId]);
    expect(chosen.totals.cost).toBe(1.75);
  });

  it('refuses a range that ends before it starts, or is longer than a year, at the field', async () => {
    const backwards = await get(t, '/api/usage?from=2026-03-03&to=2026-03-01', admin.key);
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().detail[0].loc).toEqual(['query', 'to']);
    expect((await get(t, '/api/usage?from=2024-01-01&to=2026-03-01', admin.key)).statusCode).toBe(422);
    expect((await get(t, '/api/usage?from=2026-02-30', admin.key)).json().detail[0].loc).toEqual(['query', 'from']);
  });

  it('exports a row per day and user as CSV, an address a spreadsheet would run kept as text', async () => {
    const response = await get(t, '/api/usage/csv?from=2026-03-01&to=2026-03-03', admin.key);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="usage-2026-03-01-2026-03-03.csv"; filename*=UTF-8''usage-2026-03-01-2026-03-03.csv`,
    );
    expect(response.body.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = response.body.trimEnd().split('\r\n');
    expect(header).toBe('day,user_id,email,calls,prompt_tokens,completion_tokens,cache_read_tokens,cost_usd,sandbox_hours,conversations');
    // By day, then user id (random: either order within a day).
    expect(rows).toEqual(rows.toSorted());
    expect(rows.toSorted()).toEqual(
      [
        `2026-03-01,${alice.userId},alice@example.com,2,200,40,20,0.75,1,2`,
        `2026-03-02,${alice.userId},alice@example.com,0,0,0,0,0,0.5,0`,
        `2026-03-02,${bob.userId},'=bob@example.com,1,1000,200,0,2,0,1`,
        `2026-03-03,${alice.userId},alice@example.com,2,200,40,20,1,0.5,0`,
        `2026-03-03,${bob.userId},'=bob@example.com,0,0,0,0,0,1.5,0`,
      ].sort(),
    );
  });

  it("refuses a start once this month's costs reach the budget an admin set, saying so; below it, or without one, it starts", async () => {
    const carol = await addMember(t, 'carol@example.com', 'member');
    const members = `/api/organizations/default/members/${carol.userId}`;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: members,
      headers: { 'x-session-api-key': admin.key, 'content-type': 'application/json' },
      payload: JSON.stringify({ monthly_cost_limit: 5 }),
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().monthly_cost_limit).toBe(5);
    // A member may not set their own.
    const own = await t.app.inject({
      method: 'PATCH',
      url: members,
      headers: { 'x-session-api-key': carol.key, 'content-type': 'application/json' },
      payload: JSON.stringify({ monthly_cost_limit: null }),
    });
    expect(own.statusCode).toBe(403);

    await t.db
      .insertInto('llm_calls')
      .values(call(carol.userId, 'gpt-4o', new Date().toISOString(), 4.99))
      .execute();
    await t.services.usage.refuseOverBudget(carol.userId);
    await t.db
      .insertInto('llm_calls')
      .values(call(carol.userId, 'gpt-4o', new Date().toISOString(), 0.01))
      .execute();

    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/app-conversations',
      headers: { 'x-session-api-key': carol.key, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().detail).toMatch(/used \$5\.00 of your monthly budget of \$5\.00/);
    expect(await t.db.selectFrom('conversation_starts').selectAll().where('user_id', '=', carol.userId).execute()).toEqual([]);

    const usage = await usageOf(t, '', admin.key);
    expect(usage.users.find((user) => user.user_id === carol.userId)).toMatchObject({ month_cost: 5, monthly_cost_limit: 5 });
    // Others are not held to it.
    await t.services.usage.refuseOverBudget(alice.userId);
  });
});

describe('sandbox running time', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  const runs = () => t.db.selectFrom('sandbox_runs').selectAll().orderBy('id').execute();

  it('opens a stretch at a start and a resume and closes it at a pause and a delete, by its owner and runtime', async () => {
    const { sandbox } = await t.services.sandboxes.start(sessionKeyCaller, undefined);
    expect(await runs()).toMatchObject([{ sandbox_id: sandbox.id, user_id: 'default', runtime: 'process', open: 1 }]);
    await t.services.sandboxes.pause(sessionKeyCaller, sandbox.id);
    const [paused] = await runs();
    expect(paused).toMatchObject({ open: 0 });
    expect(paused!.ended_at >= paused!.started_at).toBe(true);
    await t.services.sandboxes.resume(sessionKeyCaller, sandbox.id);
    expect((await runs()).map((run) => run.open)).toEqual([0, 1]);
    await t.services.sandboxes.delete(sessionKeyCaller, sandbox.id);
    expect((await runs()).map((run) => run.open)).toEqual([0, 0]);
  });
});
