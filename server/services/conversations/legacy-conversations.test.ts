import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppConversation, StartTask } from '../../../src/contract/conversations';
import { SANDBOX_STATUSES } from '../../../src/contract/sandboxes';
import { toLegacyConversation } from './legacy-conversations';
import { startTestApp, type TestApp } from '../../testing/test-app';

/* OpenHands' legacy conversation reads, which its web client's home and conversation pages use. */

const sample: AppConversation = {
  id: '0123456789abcdef0123456789abcdef',
  created_by_user_id: null,
  sandbox_id: 'sb',
  selected_repository: 'ada/engine',
  selected_branch: 'main',
  git_provider: 'github',
  title: null,
  trigger: 'gui',
  pr_number: [3],
  llm_model: null,
  metrics: null,
  parent_conversation_id: null,
  sub_conversation_ids: ['fedcba9876543210fedcba9876543210'],
  created_at: '2025-11-28T10:00:00Z',
  updated_at: '2025-11-28T10:05:00Z',
  sandbox_status: 'RUNNING',
  execution_status: 'idle',
  conversation_url: 'http://127.0.0.1:9000/api/conversations/0123456789abcdef0123456789abcdef',
  session_api_key: 'sandbox-key',
  archived: false,
  skills: [],
};

describe('toLegacyConversation (OpenHands V1 shim)', () => {
  const mapping = [
    ['RUNNING', 'RUNNING', 'STATUS$READY'],
    ['STARTING', 'STARTING', null],
    ['PAUSED', 'STOPPED', null],
    ['ERROR', 'ERROR', null],
    ['MISSING', 'ARCHIVED', null],
  ] as const;

  it.each(mapping)('maps a %s sandbox to %s (runtime %s)', (sandbox_status, status, runtime_status) => {
    expect(toLegacyConversation({ ...sample, sandbox_status })).toMatchObject({ status, runtime_status });
  });

  it('has a row above for every sandbox status', () => {
    expect(mapping.map(([sandbox_status]) => sandbox_status).sort()).toEqual([...SANDBOX_STATUSES].sort());
  });

  it('says STATUS$ERROR for a running sandbox whose agent failed or is stuck', () => {
    expect(toLegacyConversation({ ...sample, execution_status: 'error' }).runtime_status).toBe('STATUS$ERROR');
    expect(toLegacyConversation({ ...sample, execution_status: 'stuck' }).runtime_status).toBe('STATUS$ERROR');
  });

  it('carries the rest over as OpenHands does, an untitled one named from its id in base62', () => {
    expect(toLegacyConversation(sample)).toEqual({
      conversation_id: sample.id,
      title: 'Conversation 296tiiBb3U904RIpygpjj',
      last_updated_at: sample.updated_at,
      status: 'RUNNING',
      runtime_status: 'STATUS$READY',
      selected_repository: 'ada/engine',
      selected_branch: 'main',
      git_provider: 'github',
      trigger: 'gui',
      num_connections: 0,
      url: sample.conversation_url,
      session_api_key: 'sandbox-key',
      created_at: sample.created_at,
      pr_number: [3],
      conversation_version: 'V1',
      sub_conversation_ids: ['fedcba9876543210fedcba9876543210'],
    });
    expect(toLegacyConversation({ ...sample, title: 'Fix it' }).title).toBe('Fix it');
    // A leading zero byte, which the number alone would lose (pybase62 encodes it as "01").
    expect(toLegacyConversation({ ...sample, id: `00${sample.id.slice(2)}` }).title).toBe('Conversation 01G7NDPD1p26dkd8TTu5nD');
  });
});

describe('/api/conversations', () => {
  let t: TestApp;
  const ids: string[] = [];
  const get = (url: string) => t.request({ method: 'GET', url });
  const post = (url: string, body: unknown) =>
    t.request({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  async function startAndWait(body: unknown): Promise<StartTask> {
    const started: StartTask = (await post('/api/v1/app-conversations', body)).json();
    return vi.waitFor(
      async () => {
        const task: StartTask = (await get(`/api/v1/app-conversations/start-tasks?ids=${started.id}`)).json()[0];
        expect(['READY', 'ERROR']).toContain(task.status);
        return task;
      },
      { timeout: 30_000 },
    );
  }

  beforeAll(async () => {
    t = await startTestApp();
    const first = await startAndWait({ title: 'first' });
    expect(first.status, first.detail ?? '').toBe('READY');
    ids.push(first.app_conversation_id!);
    // Two more in the same sandbox: cheaper than a sandbox each.
    for (const title of ['second', 'third']) {
      const task = await startAndWait({ title, sandbox_id: first.sandbox_id });
      expect(task.status, task.detail ?? '').toBe('READY');
      ids.push(task.app_conversation_id!);
    }
  }, 90_000);
  afterAll(async () => {
    await t.close();
  });

  it('lists newest first in pages of `limit` (20 by default), `next_page_id` going back as `page_id`', async () => {
    const all = await get('/api/conversations');
    expect(all.statusCode).toBe(200);
    expect(all.json().results.map((c: { conversation_id: string }) => c.conversation_id)).toEqual([...ids].reverse());
    expect(all.json().next_page_id).toBeNull();

    const first = (await get('/api/conversations?limit=2')).json();
    expect(first.results).toHaveLength(2);
    expect(first.next_page_id).toEqual(expect.any(String));
    const second = (await get(`/api/conversations?limit=2&page_id=${encodeURIComponent(first.next_page_id)}`)).json();
    expect(second).toEqual({ results: [expect.objectContaining({ conversation_id: ids[0] })], next_page_id: null });
  });

  it('returns one conversation, its status following its sandbox', async () => {
    const running = await get(`/api/conversations/${ids[0]}`);
    expect(running.statusCode).toBe(200);
    expect(running.json()).toMatchObject({ conversation_id: ids[0], status: 'RUNNING', conversation_version: 'V1' });

    const sandboxId = (await get(`/api/v1/app-conversations?ids=${ids[0]}`)).json()[0].sandbox_id;
    expect((await post(`/api/v1/sandboxes/${sandboxId}/pause`, {})).statusCode).toBe(200);
    expect((await get(`/api/conversations/${ids[0]}`)).json()).toMatchObject({ status: 'STOPPED', runtime_status: null });
  });

  it('responds with 404 for an unknown id and 422 for a page id it did not give out', async () => {
    const unknown = await get('/api/conversations/ffffffffffffffffffffffffffffffff');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toEqual(expect.any(String));
    const badPage = await get('/api/conversations?page_id=nonsense');
    expect(badPage.statusCode).toBe(422);
    expect(badPage.json().detail[0].loc).toEqual(['query', 'page_id']);
  });

  it('refuses the legacy (V0) start with a 422 that points to the V1 start', async () => {
    const response = await post('/api/conversations', { initial_user_msg: 'hi' });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([
      expect.objectContaining({ loc: ['body'], msg: expect.stringContaining('POST /api/v1/app-conversations') }),
    ]);
  });
});
