import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppConversation, StartTask } from '../../src/contract/conversations';
import { DEMO_MODEL } from '../../src/contract/events';
import { ConversationsStore } from '../store/conversations-store';
import { conversationRecord } from '../testing/conversation-records';
import { databasesUnderTest, type DatabaseName, onlyPostgres } from '../testing/databases';
import { scrape, type Scraped } from '../testing/metrics-scrape';
import { type OpenAiStub, startOpenAiStub } from '../testing/openai-stub';
import { shellSpec, startSandbox, statusBecomes } from '../testing/sandbox-helpers';
import { addMember } from '../testing/team-members';
import { startTestApp, TEST_SESSION_KEY, type TestApp, type TestAppOptions } from '../testing/test-app';

/*
 * GET /metrics read as Prometheus reads it (its text parsed by a Prometheus text-format parser),
 * after real requests, a real sandbox with a demo conversation in it, and LLM calls through the proxy.
 */

const METRICS_TOKEN = 'metrics-token-for-prometheus-0123456789';
const DURATION = 'agent_console_http_request_duration_seconds';
const WAIT_MS = 20_000;
/** A sandbox, a conversation and its agent's run: slow on a busy machine. */
const SLOW = { timeout: 90_000 };

const apps: TestApp[] = [];
const stubs: OpenAiStub[] = [];
afterEach(async () => {
  // The second instance of a database before the first, which drops it.
  for (const t of apps.splice(0).reverse()) await t.close();
  for (const stub of stubs.splice(0)) await stub.close();
});

async function app(options: TestAppOptions): Promise<TestApp> {
  const t = await startTestApp(options);
  apps.push(t);
  return t;
}

const statusOf = async (t: TestApp, headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/metrics', headers })).statusCode;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Starts a conversation of the demo model (no LLM) and waits until its agent has finished; returns its id. */
async function finishedDemoConversation(t: TestApp): Promise<AppConversation> {
  expect((await t.postSettings({ llm_model: DEMO_MODEL })).statusCode).toBe(200);
  const started = await t.request({
    method: 'POST',
    url: '/api/v1/app-conversations',
    payload: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Show me around' }], run: true } }),
    headers: { 'content-type': 'application/json' },
  });
  const task = await vi.waitFor(
    async () => {
      const current: StartTask = (
        await t.request({ method: 'GET', url: `/api/v1/app-conversations/start-tasks?ids=${started.json().id}` })
      ).json()[0];
      expect(['READY', 'ERROR']).toContain(current.status);
      return current;
    },
    { timeout: WAIT_MS },
  );
  expect(task.status, task.detail ?? '').toBe('READY');
  return vi.waitFor(
    async () => {
      const conversation: AppConversation = (
        await t.request({ method: 'GET', url: `/api/v1/app-conversations?ids=${task.app_conversation_id}` })
      ).json()[0];
      expect(conversation.execution_status).toBe('finished');
      return conversation;
    },
    { timeout: WAIT_MS },
  );
}

describe.each(databasesUnderTest())('GET /metrics on %s', (database: DatabaseName) => {
  it("is read with METRICS_TOKEN or an owner's or admin's key; without a key or with a wrong one 401, with a member's 403", async () => {
    const t = await app({ database, metricsToken: METRICS_TOKEN });
    const admin = await addMember(t, 'admin@example.com', 'admin');
    const member = await addMember(t, 'member@example.com', 'member');

    expect(await statusOf(t, {})).toBe(401);
    expect(await statusOf(t, bearer('not-a-key'))).toBe(401);
    expect(await statusOf(t, bearer(member.key))).toBe(403);
    expect(await statusOf(t, { 'x-session-api-key': member.key })).toBe(403);
    expect(await statusOf(t, bearer(admin.key))).toBe(200);
    expect(await statusOf(t, { 'x-session-api-key': admin.key })).toBe(200);
    expect(await statusOf(t, bearer(TEST_SESSION_KEY))).toBe(200);
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(METRICS_TOKEN) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    // The token reads the metrics and nothing else.
    expect((await t.app.inject({ method: 'GET', url: '/api/settings', headers: bearer(METRICS_TOKEN) })).statusCode).toBe(401);
  });

  it("without METRICS_TOKEN is read with owners' and admins' keys alone", async () => {
    const t = await app({ database });
    const admin = await addMember(t, 'admin@example.com', 'admin');
    const member = await addMember(t, 'member@example.com', 'member');

    expect(await statusOf(t, bearer(METRICS_TOKEN))).toBe(401);
    expect(await statusOf(t, bearer(''))).toBe(401);
    expect(await statusOf(t, bearer(member.key))).toBe(403);
    expect(await statusOf(t, bearer(admin.key))).toBe(200);
  });

  it('counts requests by route pattern and status, with their latency buckets; every series is labelled with the instance', async () => {
    const t = await app({ database, metricsToken: METRICS_TOKEN });
    const deleteUnknown = { method: 'DELETE', route: '/api/v1/sandboxes/:sandbox_id', status_code: '404' };
    const unmatched = { method: 'GET', route: 'unmatched', status_code: '404' };
    const count = (scraped: Scraped, labels: Record<string, string>) => scraped.histogram(DURATION, labels)?.count ?? 0;
    const before = await scrape(t, METRICS_TOKEN);

    for (const id of ['no-such-sandbox-1', 'no-such-sandbox-2'])
      expect((await t.request({ method: 'DELETE', url: `/api/v1/sandboxes/${id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/no/such/route' })).statusCode).toBe(404);
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(METRICS_TOKEN) });
    const after = await scrape(t, METRICS_TOKEN);

    expect(after.metric(DURATION).type).toBe('histogram');
    expect(count(after, deleteUnknown) - count(before, deleteUnknown)).toBe(2);
    expect(count(after, unmatched) - count(before, unmatched)).toBe(1);
    // The scrape before counts too, under its own route.
    expect(count(after, { method: 'GET', route: '/metrics', status_code: '200' })).toBeGreaterThanOrEqual(2);
    const histogram = after.histogram(DURATION, deleteUnknown)!;
    const bounds = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '30', '+Inf'];
    expect(new Set(Object.keys(histogram.buckets))).toEqual(new Set(bounds));
    expect(histogram.buckets['+Inf']).toBe(histogram.count);
    // Route patterns, never URLs: what a request names does not become a series.
    expect(response.body).not.toContain('no-such');

    const instanceId = t.services.instances.id;
    expect(after.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(after.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    const unlabelled = after.everySample().filter(({ labels }) => labels.instance_id !== instanceId);
    expect(unlabelled.map(({ name }) => name)).toEqual([]);
  });

  it('shows the sandboxes by status, the running conversations and how far behind event collection is, and LLM use', SLOW, async () => {
    const t = await app({ database, metricsToken: METRICS_TOKEN });
    const sandboxes = (scraped: Scraped, status: string) => scraped.value('agent_console_sandboxes', { status, runtime: 'process' });
    const conversations = (scraped: Scraped, execution_status: string) =>
      scraped.value('agent_console_running_conversations', { execution_status });
    const lagSeconds = async () => (await scrape(t, METRICS_TOKEN)).value('agent_console_event_collection_lag_seconds');
    const empty = await scrape(t, METRICS_TOKEN);
    expect(['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING'].map((status) => sandboxes(empty, status))).toEqual([0, 0, 0, 0, 0]);
    expect(empty.value('agent_console_event_collection_lag_seconds')).toBe(0);

    const conversation = await finishedDemoConversation(t);
    // Every event it sent is stored, and its socket stays open: nothing is behind, even a minute on.
    await expect.poll(lagSeconds, { timeout: WAIT_MS }).toBe(0);
    expect(t.services.collector.progress(Date.now() + 60_000).lagMs).toBe(0);
    const running = await scrape(t, METRICS_TOKEN);
    expect(sandboxes(running, 'RUNNING')).toBe(1);
    expect(sandboxes(running, 'STARTING')).toBe(0);
    expect(conversations(running, 'finished')).toBe(1);
    expect(conversations(running, 'running')).toBe(0);
    expect(running.value('agent_console_event_collection_last_round_timestamp_seconds')).toBeGreaterThan(0);

    // A conversation its agent server does not know, which cannot be created there again (no workspace recorded): never collected.
    await new ConversationsStore(t.db).insert(
      conversationRecord({ id: randomUUID().replaceAll('-', ''), sandbox_id: conversation.sandbox_id, working_dir: null }),
    );
    await t.services.collector.sync();
    expect(t.services.collector.progress(Date.now() + 60_000).lagMs).toBeGreaterThanOrEqual(60_000);
    await expect.poll(lagSeconds, { timeout: WAIT_MS }).toBeGreaterThan(0);
    expect(conversations(await scrape(t, METRICS_TOKEN), 'unknown')).toBe(1);

    // An LLM call of the conversation, through the proxy.
    const llm = await startOpenAiStub([{ text: 'Hello.', usage: { prompt_tokens: 1000, completion_tokens: 100 } }]);
    stubs.push(llm);
    expect((await t.postSettings({ llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl, llm_api_key: 'sk-test' })).statusCode).toBe(200);
    const called = await fetch(`${await t.services.llmProxy.baseUrlForSandbox()}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.services.llmProxy.tokenFor(conversation.id)}` },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }] }),
    });
    expect(called.status).toBe(200);
    await called.text();
    const calls = async () =>
      (await scrape(t, METRICS_TOKEN)).value('agent_console_llm_calls_total', { model: 'gpt-4o', status_code: '200' });
    await expect.poll(calls, { timeout: WAIT_MS }).toBe(1);
    const used = await scrape(t, METRICS_TOKEN);
    expect(used.value('agent_console_llm_tokens_total', { model: 'gpt-4o', type: 'prompt' })).toBe(1000);
    expect(used.value('agent_console_llm_tokens_total', { model: 'gpt-4o', type: 'completion' })).toBe(100);
    expect(used.value('agent_console_llm_cost_usd_total', { model: 'gpt-4o' })).toBeCloseTo(0.0035, 10);

    // Paused: no longer running, its conversations no longer collected.
    expect((await t.request({ method: 'POST', url: `/api/v1/sandboxes/${conversation.sandbox_id}/pause` })).statusCode).toBe(200);
    await t.services.collector.sync();
    const paused = await scrape(t, METRICS_TOKEN);
    expect(sandboxes(paused, 'PAUSED')).toBe(1);
    expect(sandboxes(paused, 'RUNNING')).toBe(0);
    const stillRunning = paused.samples('agent_console_running_conversations').map((sample) => sample.value);
    expect(stillRunning.reduce((sum, count) => sum + count, 0)).toBe(0);
    expect(paused.value('agent_console_event_collection_lag_seconds')).toBe(0);
  });

  it("reports the database's connections", async () => {
    const t = await app({ database, metricsToken: METRICS_TOKEN });
    const pool = (scraped: Scraped, what: string) => scraped.value(`agent_console_database_pool_${what}`, { dialect: database });
    if (database === 'sqlite') {
      const scraped = await scrape(t, METRICS_TOKEN);
      expect(pool(scraped, 'max_connections')).toBe(1);
      expect(pool(scraped, 'connections')).toBe(1);
      expect(pool(scraped, 'idle_connections')).toBeLessThanOrEqual(1);
      expect(pool(scraped, 'waiting_queries')).toBeGreaterThanOrEqual(0);
      return;
    }
    // A transaction holds one of the pool's connections while the metrics are read.
    const scraped = await t.db.transaction().execute(async (trx) => {
      await trx.selectFrom('sandboxes').select('id').execute();
      return scrape(t, METRICS_TOKEN);
    });
    expect(pool(scraped, 'max_connections')).toBe(10);
    expect(pool(scraped, 'connections')).toBeLessThanOrEqual(10);
    expect(pool(scraped, 'connections') - pool(scraped, 'idle_connections')).toBeGreaterThanOrEqual(1);
    expect(pool(scraped, 'waiting_queries')).toBe(0);
  });
});

describe.each(onlyPostgres())('GET /metrics of two instances on %s', (database) => {
  it('shows each instance its own sandboxes and process, labelled with its id', async () => {
    const idle = shellSpec('idle', 'exec sleep 600');
    const first = await app({ database, metricsToken: METRICS_TOKEN, sandboxSpecs: [idle], listen: true });
    const second = await app({ databaseUrl: first.databaseUrl, metricsToken: METRICS_TOKEN, sandboxSpecs: [idle], listen: true });
    const { id } = await startSandbox(first, 'idle');
    await statusBecomes(first, id, 'STARTING');

    const [ofFirst, ofSecond] = [await scrape(first, METRICS_TOKEN), await scrape(second, METRICS_TOKEN)];
    const starting = (scraped: Scraped) => scraped.value('agent_console_sandboxes', { status: 'STARTING' });
    expect([starting(ofFirst), starting(ofSecond)]).toEqual([1, 0]);
    expect(first.services.instances.id).not.toBe(second.services.instances.id);
    for (const [t, scraped] of [
      [first, ofFirst],
      [second, ofSecond],
    ] as const) {
      const ids = new Set(scraped.everySample().map(({ labels }) => labels.instance_id));
      expect([...ids]).toEqual([t.services.instances.id]);
    }
  });
});
