import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { fakeApi, json, testQueryClient } from '../testing/fake-api';
import { confirmActionsMutation, pauseAgentMutation, runAgentMutation, sendMessageMutation } from './agent';
import { conversationKeys } from './conversations';

const BASE = '/api/v1/app-conversations/c1';

describe('agent mutations', () => {
  it('send a message to run, pause, run, approve and reject with a reason; each reads the conversation again', async () => {
    const ok = () => json(200, { success: true });
    const api = fakeApi({
      [`POST ${BASE}/send-message`]: ok,
      [`POST ${BASE}/pause`]: ok,
      [`POST ${BASE}/run`]: ok,
      [`POST ${BASE}/confirm`]: ok,
    });
    const queryClient = testQueryClient();
    const invalidated = () => queryClient.getQueryState(conversationKeys.detail('c1'))?.isInvalidated;

    queryClient.setQueryData(conversationKeys.detail('c1'), { id: 'c1' });
    await new MutationObserver(queryClient, sendMessageMutation(queryClient, 'c1')).mutate({ text: 'List the files', images: [] });
    expect(invalidated()).toBe(true);
    await new MutationObserver(queryClient, sendMessageMutation(queryClient, 'c1')).mutate({
      text: 'And this?',
      images: ['data:image/png;base64,AAAA'],
    });
    await new MutationObserver(queryClient, pauseAgentMutation(queryClient, 'c1')).mutate();
    await new MutationObserver(queryClient, runAgentMutation(queryClient, 'c1')).mutate();
    const confirm = new MutationObserver(queryClient, confirmActionsMutation(queryClient, 'c1'));
    await confirm.mutate({ accept: true });
    await confirm.mutate({ accept: false, reason: 'Not that file' });

    expect(api.requests.map(({ url, body }) => [url, body])).toEqual([
      [`${BASE}/send-message`, { role: 'user', content: [{ type: 'text', text: 'List the files', cache_prompt: false }], run: true }],
      [
        `${BASE}/send-message`,
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And this?', cache_prompt: false },
            { type: 'image', image_urls: ['data:image/png;base64,AAAA'], cache_prompt: false },
          ],
          run: true,
        },
      ],
      [`${BASE}/pause`, {}],
      [`${BASE}/run`, {}],
      [`${BASE}/confirm`, { accept: true }],
      [`${BASE}/confirm`, { accept: false, reason: 'Not that file' }],
    ]);
  });

  it('fail with the detail of a 409, which says what to do', async () => {
    fakeApi({ [`POST ${BASE}/send-message`]: () => json(409, { detail: 'The sandbox is paused: resume it first' }) });
    const queryClient = testQueryClient();
    const send = new MutationObserver(queryClient, sendMessageMutation(queryClient, 'c1'));
    await expect(send.mutate({ text: 'hi', images: [] })).rejects.toMatchObject({
      status: 409,
      message: 'The sandbox is paused: resume it first',
    });
  });
});
