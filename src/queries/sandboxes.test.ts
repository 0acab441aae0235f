import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { SandboxInfo, SandboxPage, SandboxStatus } from '../contract/sandboxes';
import { deferred, fakeApi, json, testQueryClient } from '../testing/fake-api';
import {
  matchingSandboxes,
  pollInterval,
  sandboxActionMutation,
  sandboxesQuery,
  sandboxKeys,
  sandboxLogsQuery,
  startSandboxMutation,
} from './sandboxes';

const sandbox = (id: string, status: SandboxStatus): SandboxInfo => ({
  id,
  status,
  created_by_user_id: null,
  sandbox_spec_id: 'agent-server',
  session_api_key: status === 'RUNNING' ? 'key' : null,
  exposed_urls: null,
  created_at: '2026-11-25T10:00:00Z',
});
const page = (...items: SandboxInfo[]): SandboxPage => ({ items, next_page_id: null });
const statuses = (data: SandboxPage | undefined) => data?.items.map((s) => `${s.id}:${s.status}`);

describe('sandboxKeys', () => {
  it('nests lists, details and logs under one root', () => {
    expect(sandboxKeys.list({ status: 'PAUSED' })).toEqual(['sandboxes', 'list', { status: 'PAUSED' }]);
    expect(sandboxKeys.detail('a')).toEqual(['sandboxes', 'detail', 'a']);
    expect(sandboxKeys.logs('a')).toEqual(['sandboxes', 'detail', 'a', 'logs']);
    expect(sandboxKeys.actions()).toEqual(['sandboxes', 'action']);
  });
});

describe('pollInterval', () => {
  it('is 2 s while a sandbox starts or an action runs, 30 s otherwise', () => {
    expect(pollInterval([sandbox('a', 'RUNNING')], false)).toBe(30_000);
    expect(pollInterval([sandbox('a', 'STARTING')], false)).toBe(2000);
    expect(pollInterval([sandbox('a', 'PAUSED')], true)).toBe(2000);
    expect(pollInterval(undefined, false)).toBe(30_000);
  });
});

describe('sandboxesQuery', () => {
  it('searches with the filters and keeps the previous page on screen while the next loads', async () => {
    const api = fakeApi({ 'GET /api/v1/sandboxes/search': () => json(200, page(sandbox('a', 'PAUSED'))) });
    const queryClient = testQueryClient();
    const options = sandboxesQuery({ status: 'PAUSED', specId: 'agent-server' }, false);
    await queryClient.fetchQuery(options);
    expect(api.calls()).toEqual(['GET /api/v1/sandboxes/search?limit=50&status__eq=PAUSED&sandbox_spec_id__eq=agent-server']);
    expect(options.placeholderData).toBeDefined();
  });

  it('filters the page itself where the server ignores the filters (OpenHands)', async () => {
    const other = { ...sandbox('c', 'PAUSED'), sandbox_spec_id: 'other' };
    fakeApi({ 'GET /api/v1/sandboxes/search': () => json(200, page(sandbox('a', 'PAUSED'), sandbox('b', 'RUNNING'), other)) });
    const queryClient = testQueryClient();
    const filters = { status: 'PAUSED', specId: 'agent-server' } as const;
    const observer = new QueryObserver(queryClient, sandboxesQuery(filters, false, true));
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(statuses(observer.getCurrentResult().data)).toEqual(['a:PAUSED']));
    stop();
    expect(matchingSandboxes(page(sandbox('a', 'PAUSED'), sandbox('b', 'RUNNING'), other), {}).items).toHaveLength(3);
    expect(matchingSandboxes(page(sandbox('a', 'PAUSED'), other), { specId: 'other' }).items).toEqual([other]);
    expect(sandboxesQuery(filters, false).select).toBeUndefined();
  });

  it('polls fast while a sandbox starts', async () => {
    fakeApi({ 'GET /api/v1/sandboxes/search': () => json(200, page(sandbox('a', 'STARTING'))) });
    const queryClient = testQueryClient();
    const observer = new QueryObserver(queryClient, sandboxesQuery({}, false));
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBeDefined());
    const interval = observer.options.refetchInterval;
    expect(typeof interval === 'function' ? interval(observer.getCurrentQuery()) : interval).toBe(2000);
    stop();
  });
});

describe('sandboxLogsQuery', () => {
  it('asks for the last 500 lines under the sandbox’s key', async () => {
    const api = fakeApi({ 'GET /api/v1/sandboxes/a/logs': () => json(200, { sandbox_id: 'a', lines: ['hi'] }) });
    const queryClient = testQueryClient();
    await queryClient.fetchQuery(sandboxLogsQuery('a'));
    expect(api.calls()).toEqual(['GET /api/v1/sandboxes/a/logs?tail=500']);
    expect(queryClient.getQueryData(sandboxKeys.logs('a'))).toEqual({ sandbox_id: 'a', lines: ['hi'] });
  });
});

describe('startSandboxMutation', () => {
  it('starts from the spec and invalidates every list, not the logs', async () => {
    const api = fakeApi({ 'POST /api/v1/sandboxes': () => json(200, sandbox('b', 'STARTING')) });
    const queryClient = testQueryClient();
    queryClient.setQueryData(sandboxKeys.list({}), page());
    queryClient.setQueryData(sandboxKeys.list({ status: 'PAUSED' }), page());
    queryClient.setQueryData(sandboxKeys.logs('a'), { sandbox_id: 'a', lines: [] });
    await new MutationObserver(queryClient, startSandboxMutation(queryClient)).mutate('agent-server');
    expect(api.calls()).toEqual(['POST /api/v1/sandboxes?sandbox_spec_id=agent-server']);
    expect(queryClient.getQueryState(sandboxKeys.list({}))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(sandboxKeys.list({ status: 'PAUSED' }))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(sandboxKeys.logs('a'))?.isInvalidated).toBe(false);
  });
});

describe('sandboxActionMutation', () => {
  const setup = () => {
    const response = deferred<Response>();
    const api = fakeApi({
      'POST /api/v1/sandboxes/a/pause': () => response.promise,
      'DELETE /api/v1/sandboxes/a': () => response.promise,
    });
    const queryClient = testQueryClient();
    queryClient.setQueryData(sandboxKeys.list({}), page(sandbox('a', 'RUNNING'), sandbox('b', 'RUNNING')));
    return { api, response, queryClient, list: () => queryClient.getQueryData<SandboxPage>(sandboxKeys.list({})) };
  };

  it('carries the actions key, so the page can list what is under way', () => {
    expect(sandboxActionMutation(testQueryClient()).mutationKey).toEqual(sandboxKeys.actions());
  });

  it('shows a pause at once (without the running sandbox’s key) and invalidates the lists after', async () => {
    const { response, queryClient, list } = setup();
    const pausing = new MutationObserver(queryClient, sandboxActionMutation(queryClient)).mutate({ action: 'pause', id: 'a' });
    await vi.waitFor(() => expect(statuses(list())).toEqual(['a:PAUSED', 'b:RUNNING']));
    expect(list()?.items[0]?.session_api_key).toBeNull();
    response.resolve(json(200, { success: true }));
    await pausing;
    expect(queryClient.getQueryState(sandboxKeys.list({}))?.isInvalidated).toBe(true);
  });

  it('rolls back only that sandbox when the server refuses', async () => {
    const { response, queryClient, list } = setup();
    const pausing = new MutationObserver(queryClient, sandboxActionMutation(queryClient)).mutate({ action: 'pause', id: 'a' });
    await vi.waitFor(() => expect(statuses(list())).toEqual(['a:PAUSED', 'b:RUNNING']));
    queryClient.setQueryData<SandboxPage>(sandboxKeys.list({}), (data) => ({ ...data!, items: [data!.items[0]!, sandbox('b', 'PAUSED')] }));
    response.resolve(json(409, { detail: 'Conflict' }));
    await expect(pausing).rejects.toMatchObject({ status: 409 });
    expect(statuses(list())).toEqual(['a:RUNNING', 'b:PAUSED']);
    expect(list()?.items[0]?.session_api_key).toBe('key');
  });

  it('takes a deleted row away only once the server has deleted it, naming the id in path and query', async () => {
    const { api, response, queryClient, list } = setup();
    const deleting = new MutationObserver(queryClient, sandboxActionMutation(queryClient)).mutate({ action: 'delete', id: 'a' });
    await vi.waitFor(() => expect(api.calls()).toEqual(['DELETE /api/v1/sandboxes/a?sandbox_id=a']));
    expect(statuses(list())).toEqual(['a:RUNNING', 'b:RUNNING']);
    response.resolve(json(200, { success: true }));
    await deleting;
    expect(statuses(list())).toEqual(['b:RUNNING']);
  });
});
