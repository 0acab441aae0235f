import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationsStore } from '../../store/conversations-store';
import { conversationRecord } from '../../testing/conversation-records';
import { startOpenAiStub, type OpenAiStub } from '../../testing/openai-stub';
import { addMember } from '../../testing/team-members';
import { startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let llm: OpenAiStub;
beforeEach(async () => {
  t = await startTestApp();
  llm = await startOpenAiStub([]);
});
afterEach(async () => {
  await llm.close();
  await t.close();
});

const chat = { model: 'stub-model', messages: [{ role: 'user', content: 'Hello' }] };

/** A call as an agent server makes it: the proxy's base URL and its conversation's token as the key. */
async function call(token: string | undefined, body: unknown = chat): Promise<Response> {
  const baseUrl = await t.services.llmProxy.baseUrlForSandbox();
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
}

async function settingsOf(key: string, settings: object): Promise<void> {
  const saved = await t.request({
    method: 'POST',
    url: '/api/settings',
    headers: { 'x-session-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(settings),
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

const addConversation = (id: string, userId = 'default') =>
  new ConversationsStore(t.db).insert(conversationRecord({ id, user_id: userId }));
const tokenOf = (id: string) => t.services.llmProxy.tokenFor(id);

describe('the LLM proxy', () => {
  it("passes a conversation's call on to its owner's LLM with their key, and the LLM's answer back", async () => {
    const member = await addMember(t, 'mia@example.com', 'member');
    await settingsOf(member.key, { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-mia' });
    await addConversation('c-mia', member.userId);
    llm.enqueue({ text: 'Hi, Mia.' });

    const response = await call(tokenOf('c-mia'));

    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('Hi, Mia.');
    expect(llm.requests.map((request) => request.authorization)).toEqual(['Bearer sk-mia']);
    expect(llm.requests[0]!.body).toEqual(chat);
  });

  it('records each call by user and conversation, with the tokens its answer reports and their cost, streamed or not', async () => {
    const member = await addMember(t, 'mia@example.com', 'member');
    await t.postSettings({ llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl, llm_api_key: 'sk-owner' });
    await settingsOf(member.key, { llm_model: 'openai/my-own-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-mia' });
    await addConversation('c-1');
    await addConversation('c-mia', member.userId);
    llm.enqueue(
      { text: 'One.', usage: { prompt_tokens: 1000, completion_tokens: 100 } },
      { text: 'Two.', usage: { prompt_tokens: 2000, completion_tokens: 10 } },
    );

    await (await call(tokenOf('c-1'), { ...chat, model: 'gpt-4o' })).json();
    const streamed = await call(tokenOf('c-1'), { ...chat, model: 'gpt-4o', stream: true, stream_options: { include_usage: true } });
    expect(await streamed.text()).toContain('Two.');
    await (await call(tokenOf('c-mia'), { ...chat, model: 'my-own-model' })).text(); // a model without a price
    const calls = async () =>
      t.db
        .selectFrom('llm_calls')
        .select(['user_id', 'conversation_id', 'model', 'status', 'prompt_tokens', 'completion_tokens', 'cost'])
        .orderBy('id')
        .execute();
    await expect.poll(async () => (await calls()).length).toBe(3);

    expect(await calls()).toEqual([
      {
        user_id: 'default',
        conversation_id: 'c-1',
        model: 'gpt-4o',
        status: 200,
        prompt_tokens: 1000,
        completion_tokens: 100,
        cost: 0.0035,
      },
      {
        user_id: 'default',
        conversation_id: 'c-1',
        model: 'gpt-4o',
        status: 200,
        prompt_tokens: 2000,
        completion_tokens: 10,
        cost: 0.0051,
      },
      {
        user_id: member.userId,
        conversation_id: 'c-mia',
        model: 'my-own-model',
        status: 200,
        prompt_tokens: 1000,
        completion_tokens: 100,
        cost: null,
      },
    ]);
  });

  it("uses the team's LLM for a member who set none", async () => {
    const saved = await t.request({
      method: 'PATCH',
      url: '/api/organizations/default/settings',
      payload: JSON.stringify({ llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-team' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(saved.statusCode, saved.body).toBeLessThan(300);
    const member = await addMember(t, 'max@example.com', 'member');
    await addConversation('c-max', member.userId);

    expect((await call(tokenOf('c-max'))).status).toBe(200);
    expect(llm.requests.map((request) => request.authorization)).toEqual(['Bearer sk-team']);
  });

  it('refuses a call without a token of a conversation it has, in the shape OpenAI clients read, and sends nothing on', async () => {
    await t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-owner' });
    await addConversation('c-1');
    await addConversation('c-gone');
    expect(await new ConversationsStore(t.db).delete('default', 'c-gone')).toBe(true);
    const forged = `${tokenOf('c-1').slice(0, -4)}AAAA`;
    const otherServers = tokenOf('c-1').replace('c-1', 'c-2');

    for (const token of [undefined, '', 'sk-owner', forged, otherServers, tokenOf('c-gone'), tokenOf('c-never-made')]) {
      const response = await call(token);
      expect(response.status, String(token)).toBe(401);
      expect(await response.json()).toEqual({
        error: { message: 'Not a token of a conversation this server has', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    }
    expect(llm.requests).toEqual([]);
  });

  it('says which LLM it could not reach, as a 502 the agent retries', async () => {
    await t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: 'http://127.0.0.1:9/v1', llm_api_key: 'sk-owner' });
    await addConversation('c-1');
    const response = await call(tokenOf('c-1'));
    expect(response.status).toBe(502);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toMatch(/^The LLM at http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions could not be reached \(.*ECONNREFUSED.*\)/);
    expect(error.message).not.toContain('sk-owner');
  });

  it("passes the LLM's stream on as it comes: a chunk reaches the agent before the LLM has sent the rest", async () => {
    let sendRest: () => void = () => undefined;
    const streaming = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"choices":[{"delta":{"content":"first"}}]}\n\n');
      sendRest = () => response.end('data: {"choices":[{"delta":{"content":" second"}}]}\n\ndata: [DONE]\n\n');
    });
    await new Promise<void>((resolve) => streaming.listen(0, '127.0.0.1', resolve));
    try {
      const upstream = `http://127.0.0.1:${(streaming.address() as AddressInfo).port}/v1`;
      await t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: upstream, llm_api_key: 'sk-owner' });
      await addConversation('c-1');

      const response = await call(tokenOf('c-1'), { ...chat, stream: true });
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const reader = response.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toContain('"first"');
      sendRest();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
      expect(rest).toContain('" second"');
      expect(rest).toContain('[DONE]');
    } finally {
      streaming.closeAllConnections();
      await new Promise((resolve) => streaming.close(resolve));
    }
  });
});
