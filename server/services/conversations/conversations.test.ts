import { sessionKeyCaller } from '../../authz/caller';
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DumbHttpRepo, type RepoFiles, startDumbHttpRepo } from '../../../test-support/git/dumb-http-repo';
import type { StartTask } from '../../../src/contract/conversations';
import { CONTAINER_HOME } from '../../sandboxes/docker/sandbox-image';
import { loadSandboxSpecs } from '../../sandboxes/specs';
import { shellSpec } from '../../testing/sandbox-helpers';
import { planOf, recordingQueries } from '../../testing/query-plans';
import { ConversationsStore } from '../../store/conversations-store';
import { conversationRecord, startTaskRecord } from '../../testing/conversation-records';
import { databasesUnderTest, freshPostgresDatabase } from '../../testing/databases';
import { hostAddressFor, runtimesUnderTest } from '../../testing/docker-engine';
import { type OpenAiStub, startOpenAiStub } from '../../testing/openai-stub';
import { startTestApp, type TestApp, type TestAppOptions } from '../../testing/test-app';

/*
 * What a runtime changes (the sandbox a start waits for, git and the setup script run in it, a
 * resume, a cancelled command) runs on each runtime; the rest once, on processes.
 */

const runtimes = runtimesUnderTest('server/services/conversations/conversations.test.ts');
const apps: TestApp[] = [];
const repos: DumbHttpRepo[] = [];
const stubs: OpenAiStub[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
  for (const repo of repos.splice(0)) await repo.close();
  for (const stub of stubs.splice(0)) await stub.close();
});

async function app(options: TestAppOptions = {}) {
  const t = await startTestApp(options);
  apps.push(t);
  return t;
}

/** Served on `address`: loopback, or where containers reach the host (`hostAddressFor`). */
async function repo(content: Record<string, RepoFiles>, token: string, address?: string) {
  const served = await startDumbHttpRepo(content, token, address);
  repos.push(served);
  return served;
}

const json = (t: TestApp, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  t.request({
    method,
    url,
    ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

/** How long a start, a status or a clean-up in these tests may take. */
const WAIT = { timeout: 20_000 };

const task = async (t: TestApp, id: string): Promise<StartTask> =>
  (await json(t, 'GET', `/api/v1/app-conversations/start-tasks?ids=${id}`)).json()[0];

/** Starts a conversation and waits until its task is READY or in ERROR. */
async function startAndWait(t: TestApp, body: unknown): Promise<StartTask> {
  const response = await json(t, 'POST', '/api/v1/app-conversations', body);
  expect(response.statusCode, response.body).toBe(200);
  const started: StartTask = response.json();
  expect(started.status).toBe('WORKING');
  return vi.waitFor(async () => {
    const current = await task(t, started.id);
    expect(['READY', 'ERROR']).toContain(current.status);
    return current;
  }, WAIT);
}

const conversation = async (t: TestApp, id: string) => (await json(t, 'GET', `/api/v1/app-conversations?ids=${id}`)).json()[0];

/** The branch checked out in `dir`, as git in the sandbox sees it (the files are the sandbox user's). */
const branchIn = async (t: TestApp, sandboxId: string, dir: string) =>
  (
    await t.services.sandboxes.exec(sessionKeyCaller, sandboxId, ['git', 'rev-parse', '--abbrev-ref', 'HEAD'], {
      cwd: dir,
      timeoutMs: 10_000,
    })
  ).output.trim();

const message = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], run: true });

/** Runs `command` in a directory of the sandbox, as its own processes run. */
const runIn = (t: TestApp, sandboxId: string, dir: string, command: string[]) =>
  t.services.sandboxes.exec(sessionKeyCaller, sandboxId, command, { cwd: dir, timeoutMs: 10_000 });

describe.each(runtimes)('starting a conversation on the %s runtime', (runtime) => {
  const appOn = (options: TestAppOptions = {}) => app({ sandboxRuntime: runtime, ...options });
  /** Where the test's git host listens for this runtime's sandboxes to reach it (git URLs are not rewritten for containers). */
  const gitHost = async () => (await hostAddressFor(runtime)).host;

  it('streams every step in order, and ends READY with a conversation its agent server knows', async () => {
    const t = await appOn();
    const response = await json(t, 'POST', '/api/v1/app-conversations/stream-start', {
      initial_message: message('Fix the tests\nthen report'),
    });
    expect(response.statusCode).toBe(200);
    const states: StartTask[] = JSON.parse(response.body);
    expect(states.map((state) => state.status)).toEqual([
      'WORKING',
      'WAITING_FOR_SANDBOX',
      'PREPARING_REPOSITORY',
      'RUNNING_SETUP_SCRIPT',
      'SETTING_UP_GIT_HOOKS',
      'SETTING_UP_SKILLS',
      'STARTING_CONVERSATION',
      'READY',
    ]);
    const ready = states.at(-1)!;
    expect(ready.app_conversation_id).toMatch(/^[0-9a-f]{32}$/);
    expect(ready.sandbox_id).toEqual(states[1]!.sandbox_id);
    expect((await task(t, ready.id)).status).toBe('READY');

    const started = await conversation(t, ready.app_conversation_id!);
    expect(started).toMatchObject({ title: 'Fix the tests', sandbox_status: 'RUNNING', sandbox_id: ready.sandbox_id, archived: false });
    const agent = await fetch(started.conversation_url, { headers: { 'X-Session-API-Key': started.session_api_key } });
    expect(agent.status).toBe(200);
    expect(await agent.json()).toMatchObject({ id: started.id });
    // No model in Settings: the first message runs the agent, which stops and says to pick one (NO_MODEL).
    await expect.poll(async () => (await conversation(t, started.id)).execution_status, WAIT).toBe('error');
  });

  it('clones over HTTP with the stored token (which no file or detail holds), checks out the branch, runs the setup script, installs the hook, finds the skills', async () => {
    const token = 'ghp_conversation_test_token_7e1';
    const served = await repo(
      {
        'octo/hello': {
          files: {
            'README.md': '# hello\n',
            '.openhands/setup.sh': 'echo "setup ran with $API_TOKEN" > setup-ran.txt\n',
            '.openhands/pre-commit.sh': '#!/bin/sh\nexit 0\n',
            '.openhands/skills/testing.md': '# testing\n',
            '.openhands/microagents/docs.md': '# docs\n',
          },
          branches: { feature: { 'feature.txt': 'on the branch\n' } },
        },
      },
      token,
      await gitHost(),
    );
    const t = await appOn();
    await json(t, 'POST', '/api/add-git-providers', { provider_tokens: { github: { token, host: served.host } } });
    await json(t, 'POST', '/api/secrets', { name: 'API_TOKEN', value: 'custom-secret-value' });

    const done = await startAndWait(t, { selected_repository: 'octo/hello', selected_branch: 'feature', initial_message: message('Go') });
    expect(done.detail).toBeNull();
    expect(done.status).toBe('READY');
    const started = await conversation(t, done.app_conversation_id!);
    expect(started).toMatchObject({
      selected_repository: 'octo/hello',
      selected_branch: 'feature',
      git_provider: 'github',
      skills: ['docs', 'testing'],
    });

    const workspace = `workspaces/${started.id}/hello`;
    const inWorkspace = (command: string[]) => runIn(t, done.sandbox_id!, workspace, command);
    expect((await inWorkspace(['cat', 'feature.txt'])).output).toBe('on the branch\n');
    expect(await branchIn(t, done.sandbox_id!, workspace)).toBe('feature');
    expect((await inWorkspace(['cat', 'setup-ran.txt'])).output).toBe('setup ran with custom-secret-value\n');
    expect((await inWorkspace(['test', '-x', '.git/hooks/pre-commit'])).exitCode).toBe(0);

    expect(served.authorizations).toContain(`Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`);
    // grep exits with 1 when it read every file of the sandbox's home and temp dir and found the token in none
    const grep = await runIn(t, done.sandbox_id!, '.', ['sh', '-c', 'grep -rqaF "$0" . "$TMPDIR"', token]);
    expect(grep).toMatchObject({ exitCode: 1, output: '' });
    expect(JSON.stringify(await task(t, done.id))).not.toContain(token);
  });

  it('starts into a paused sandbox by resuming it', async () => {
    const t = await appOn();
    const sandbox = (await json(t, 'POST', '/api/v1/sandboxes')).json();
    await expect.poll(async () => (await json(t, 'GET', `/api/v1/sandboxes?id=${sandbox.id}`)).json()[0].status, WAIT).toBe('RUNNING');
    await json(t, 'POST', `/api/v1/sandboxes/${sandbox.id}/pause`, {});
    const done = await startAndWait(t, { sandbox_id: sandbox.id });
    expect(done).toMatchObject({ status: 'READY', sandbox_id: sandbox.id });
    expect((await conversation(t, done.app_conversation_id!)).sandbox_status).toBe('RUNNING');
  });

  it('says which repository could not be cloned, and why a setup script failed', async () => {
    const served = await repo(
      { 'octo/broken': { files: { '.openhands/setup.sh': 'echo preparing\necho "missing dependency foo" >&2\nexit 7\n' } } },
      'tok',
      await gitHost(),
    );
    const t = await appOn();
    await json(t, 'POST', '/api/add-git-providers', { provider_tokens: { github: { token: 'tok', host: served.host } } });

    const unknown = await startAndWait(t, { selected_repository: 'octo/missing' });
    expect(unknown.status).toBe('ERROR');
    expect(unknown.detail).toMatch(/^Could not clone octo\/missing: git exited with code 128: /);

    const failing = await startAndWait(t, { selected_repository: 'octo/broken' });
    expect(failing.status).toBe('ERROR');
    expect(failing.detail).toContain('The setup script .openhands/setup.sh exited with code 7');
    expect(failing.detail).toContain('missing dependency foo');
    // The sandboxes these starts made go with them: they hold nothing.
    await expect.poll(async () => (await json(t, 'GET', '/api/v1/sandboxes/search')).json().items, WAIT).toEqual([]);
  });

  it('a delete cancels a start still under way, and removes the sandbox it started', async () => {
    const served = await repo(
      { 'octo/slow': { files: { '.openhands/setup.sh': 'while [ ! -f "$HOME/go" ]; do sleep 0.1; done\n' } } },
      'tok',
      await gitHost(),
    );
    const t = await appOn();
    await json(t, 'POST', '/api/add-git-providers', { provider_tokens: { github: { token: 'tok', host: served.host } } });
    const id = 'd'.repeat(32);
    const started: StartTask = (
      await json(t, 'POST', '/api/v1/app-conversations', { conversation_id: id, selected_repository: 'octo/slow' })
    ).json();
    const waiting = await vi.waitFor(async () => {
      const current = await task(t, started.id);
      expect(current.status).toBe('RUNNING_SETUP_SCRIPT');
      return current;
    }, WAIT);

    expect((await json(t, 'DELETE', `/api/v1/app-conversations/${id}`)).json()).toEqual({ success: true });
    expect(await task(t, started.id)).toBeNull();
    expect(await conversation(t, id)).toBeNull();
    expect((await json(t, 'GET', `/api/v1/sandboxes?id=${waiting.sandbox_id}`)).json()).toEqual([null]);
  });
});

describe.each(runtimes.filter((runtime) => runtime === 'docker'))('a conversation in a %s sandbox', (runtime) => {
  it("clones the test repository into its container, and its agent reaches the test's stub LLM on the host's loopback through the LLM proxy", async () => {
    const address = await hostAddressFor(runtime);
    const token = 'ghp_docker_clone_token_5d2';
    const served = await repo({ 'octo/hello': { files: { 'README.md': '# hello from the host\n' } } }, token, address.host);
    // On loopback, which no container reaches: the server's LLM proxy calls it.
    const llm = await startOpenAiStub([{ toolCalls: [{ name: 'terminal', arguments: { command: 'pwd; cat README.md' } }] }]);
    stubs.push(llm);
    const t = await app({ sandboxRuntime: runtime });
    await json(t, 'POST', '/api/add-git-providers', { provider_tokens: { github: { token, host: served.host } } });
    const settings = { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-docker-test' };
    expect((await t.postSettings(settings)).statusCode).toBe(200);

    const done = await startAndWait(t, { selected_repository: 'octo/hello', initial_message: message('What does the README say?') });
    expect(done).toMatchObject({ status: 'READY', detail: null });
    expect(served.authorizations).toContain(`Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`);
    await llm.waitForRequests(2, 30_000);
    expect(llm.requests[0]).toMatchObject({ model: 'stub-model', authorization: 'Bearer sk-docker-test' });
    // what the agent's terminal printed, sent back on its next call: the clone, in the container's workspace
    const observation = JSON.stringify(llm.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content));
    expect(observation).toContain(`${CONTAINER_HOME}/workspaces/${done.app_conversation_id}/hello`);
    expect(observation).toContain('# hello from the host');
  });
});

// What the runtime does not change: the registry, the caps, validation; run once, on processes.
describe('starting a conversation', () => {
  it('creates the branch when the repository does not have it, entering the sandbox once for the clone and once for the setup script', async () => {
    const served = await repo({ 'octo/plain': { files: { 'a.txt': 'a\n', '.openhands/setup.sh': 'touch set-up\n' } } }, 'tok');
    const t = await app();
    await json(t, 'POST', '/api/add-git-providers', { provider_tokens: { gitlab: { token: 'tok', host: served.host } } });
    const entered = vi.spyOn(t.services.sandboxes, 'exec');
    const done = await startAndWait(t, { selected_repository: 'octo/plain', selected_branch: 'new-work' });
    expect(done.status).toBe('READY');
    const commands = entered.mock.calls.map(([, , command]) => command.slice(0, 2).join(' '));
    expect(await branchIn(t, done.sandbox_id!, `workspaces/${done.app_conversation_id}/plain`)).toBe('new-work');
    expect((await runIn(t, done.sandbox_id!, `workspaces/${done.app_conversation_id}/plain`, ['ls', 'set-up'])).exitCode).toBe(0);
    // Each command is a process entered into the sandbox: the clone, the branch and a look at what
    // the later steps need (a setup script, a hook, skills, the path) in one; the setup script and
    // a look at what it changed in another. Not one per question.
    expect(commands).toEqual(['sh -c', 'sh -c']);
  });

  it('waits for its new sandbox’s first response instead of asking for its status again and again', async () => {
    const [agentServer] = loadSandboxSpecs(undefined);
    // Its agent server listens a second and a half after the start's response (which waits 300 ms at most).
    const slow = shellSpec('slow-agent', `sleep 1.5; exec ${agentServer!.command!.map((part) => `'${part}'`).join(' ')}`);
    const t = await app({ sandboxSpecs: [agentServer!, slow] });
    const asked = vi.spyOn(t.services.sandboxes, 'get');
    const done = await startAndWait(t, { sandbox_spec_id: 'slow-agent' });
    expect(done.status, done.detail ?? '').toBe('READY');
    // The start's own look, then the task's while it is STARTING and once it responded (asking every 200 ms: seven or more).
    expect(asked.mock.calls.length).toBeLessThanOrEqual(4);
  });

  it('names the sandboxes it paused to stay within the running cap', async () => {
    const t = await app({ sandboxLimits: { maxRunning: 1 } });
    const first = await startAndWait(t, { title: 'First conversation' });
    const done = await startAndWait(t, {});
    expect(done.status).toBe('READY');
    expect(done.detail).toBe(`Paused sandbox ${first.sandbox_id} ("First conversation") to stay within MAX_RUNNING_SANDBOXES`);
  });

  it('ends in ERROR naming the limit when no more sandboxes may exist', async () => {
    const t = await app({ sandboxLimits: { maxSandboxes: 1 } });
    await json(t, 'POST', '/api/v1/sandboxes');
    const done = await startAndWait(t, {});
    expect(done.status).toBe('ERROR');
    expect(done.detail).toContain('MAX_SANDBOXES');
  });

  it('refuses what it cannot start before any work: 422, 404 for an unknown parent, 409 for a taken id', async () => {
    const t = await app({ sandboxSpecs: loadSandboxSpecs(undefined) });
    const post = (body?: unknown) => json(t, 'POST', '/api/v1/app-conversations', body);
    const noBody = await t.request({ method: 'POST', url: '/api/v1/app-conversations' });
    expect(noBody.statusCode).toBe(422);
    expect(noBody.json().detail[0]).toMatchObject({ type: 'missing', loc: ['body'] });
    expect((await post({ processors: [{ kind: 'NoSuchProcessor' }] })).statusCode).toBe(422);
    expect((await post({ processors: [{}] })).statusCode).toBe(422);
    expect((await post({ conversation_id: 'not-a-uuid' })).json().detail[0].loc).toEqual(['body', 'conversation_id']);
    // What git would take as an option, or a name a NUL cuts short, never reaches git.
    for (const [field, value, msg] of [
      ['selected_branch', '--orphan=evil', 'A branch name cannot start with -'],
      ['selected_branch', 'main\nx', 'A branch name cannot contain control characters'],
      ['selected_repository', 'octo/hello\u0000evil', 'A repository name cannot contain control characters'],
    ] as const) {
      const refused = await post({ selected_repository: 'octo/hello', [field]: value });
      expect(refused.statusCode, value).toBe(422);
      expect(refused.json().detail).toEqual([expect.objectContaining({ loc: ['body', field], msg: `Value error, ${msg}` })]);
    }
    const orphan = await post({ parent_conversation_id: 'b'.repeat(32) });
    expect(orphan.statusCode).toBe(404);
    expect(orphan.json()).toEqual({ detail: `Parent conversation ${'b'.repeat(32)} not found` });

    const done = await startAndWait(t, { conversation_id: '0b9a7c5e-4d3f-4a2b-8c1d-2e3f4a5b6c7d' });
    expect(done.app_conversation_id).toBe('0b9a7c5e4d3f4a2b8c1d2e3f4a5b6c7d');
    const again = await post({ conversation_id: '0b9a7c5e4d3f4a2b8c1d2e3f4a5b6c7d' });
    expect(again.statusCode).toBe(409);
    expect(await t.db.selectFrom('start_tasks').select('id').execute()).toHaveLength(1); // no task for the refused ones
  });
});

describe('a conversation, once started', () => {
  it('goes on in a new sandbox once its own is gone: the repository cloned again, its history kept, the move said', async () => {
    const served = await repo({ 'octo/hello': { files: { 'README.md': '# hello\n' } } }, 'tok');
    const llm = await startOpenAiStub([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo draft > notes.txt' } }] },
      { text: 'Wrote the notes.' },
      { text: 'Going on in the new sandbox.' },
    ]);
    stubs.push(llm);
    const t = await app();
    await json(t, 'POST', '/api/add-git-providers', { provider_tokens: { github: { token: 'tok', host: served.host } } });
    expect((await t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-test' })).statusCode).toBe(
      200,
    );
    const started = await startAndWait(t, {
      selected_repository: 'octo/hello',
      selected_branch: 'work',
      initial_message: message('Write notes.'),
    });
    expect(started.status, started.detail ?? '').toBe('READY');
    const id = started.app_conversation_id!;
    const eventsOf = async () =>
      (await json(t, 'GET', `/api/v1/events/search?conversation_id__eq=${id}&limit=100`)).json().items as { id: string; kind: string }[];
    await vi.waitFor(
      async () =>
        expect(
          (await eventsOf()).some((event) => event.kind === 'MessageEvent' && JSON.stringify(event).includes('Wrote the notes.')),
        ).toBe(true),
      WAIT,
    );
    const before = await eventsOf();
    const { sandbox_id: oldSandbox } = await conversation(t, id);
    const tokens = async () => (await conversation(t, id)).metrics?.accumulated_token_usage?.completion_tokens ?? 0;
    await vi.waitFor(async () => expect(await tokens()).toBeGreaterThan(0), WAIT);
    const spent = await tokens();

    // Its sandbox still runs: nothing to go on from.
    const refused = await json(t, 'POST', `/api/v1/app-conversations/${id}/continue-in-new-sandbox`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('is running: it goes on there');
    expect((await json(t, 'POST', `/api/v1/app-conversations/${'f'.repeat(32)}/continue-in-new-sandbox`)).statusCode).toBe(404);

    expect((await json(t, 'DELETE', `/api/v1/sandboxes/${oldSandbox}`)).statusCode).toBe(200);
    expect((await conversation(t, id)).sandbox_status).toBe('MISSING');
    // Asked twice at once (a double click), it starts one sandbox, whose states the response streams up to READY.
    const [asked, again] = await Promise.all(
      [1, 2].map(() => json(t, 'POST', `/api/v1/app-conversations/${id}/continue-in-new-sandbox/stream`)),
    );
    expect([asked!.statusCode, again!.statusCode].sort()).toEqual([200, 409]);
    const states = JSON.parse((asked!.statusCode === 200 ? asked : again)!.body) as StartTask[];
    expect(states[0]!.status).toBe('WORKING');
    expect(states.map((state) => state.status)).toContain('WAITING_FOR_SANDBOX');
    const done = states.at(-1)!;
    expect(await task(t, done.id)).toMatchObject({ status: done.status });
    expect(done.status, done.detail ?? '').toBe('READY');
    expect(done.app_conversation_id).toBe(id);

    const now = await conversation(t, id);
    expect(now.sandbox_id).not.toBe(oldSandbox);
    expect(now.sandbox_status).toBe('RUNNING');
    const record = await t.db.selectFrom('app_conversations').select('working_dir').where('id', '=', id).executeTakeFirstOrThrow();
    // The repository again, at its branch; what the old workspace held alone is not there.
    expect((await runIn(t, now.sandbox_id, record.working_dir!, ['git', 'rev-parse', '--abbrev-ref', 'HEAD'])).output.trim()).toBe('work');
    expect((await runIn(t, now.sandbox_id, record.working_dir!, ['ls'])).output.split('\n')).not.toContain('notes.txt');
    await vi.waitFor(async () => expect((await eventsOf()).map((event) => event.kind)).toContain('ContinuedInNewSandboxEvent'), WAIT);
    const after = await eventsOf();
    // Every event of before, once each.
    for (const event of before) expect(after.filter((candidate) => candidate.id === event.id)).toHaveLength(1);

    // A message now reaches the agent in the new sandbox, which has the history.
    expect((await json(t, 'POST', `/api/v1/app-conversations/${id}/send-message`, message('Go on.'))).statusCode).toBe(200);
    await vi.waitFor(() => expect(llm.requests).toHaveLength(3), WAIT);
    const context = JSON.stringify(llm.requests[2]?.messages);
    expect(context).toContain('Write notes.');
    expect(context).toContain('Your sandbox was lost');
    // Its tokens are the conversation's: the new agent's add to those of before, which it does not start over from.
    await vi.waitFor(async () => expect(await tokens()).toBeGreaterThan(spent), WAIT);
  });

  it("shows its workspace through its agent server: changes, a diff, a listing, a file and the archive; OpenHands' config", async () => {
    const served = await repo({ 'octo/hello': { files: { 'README.md': '# hello\n', 'src/app.py': 'print(1)\n' } } }, 'tok');
    const t = await app();
    await json(t, 'POST', '/api/add-git-providers', { provider_tokens: { github: { token: 'tok', host: served.host } } });
    const started = await startAndWait(t, { selected_repository: 'octo/hello' });
    expect(started.status, started.detail ?? '').toBe('READY');
    const id = started.app_conversation_id!;
    const { sandbox_id: sandboxId } = await conversation(t, id);
    const workspace = `/api/v1/app-conversations/${id}/workspace`;
    const { working_dir: dir } = (await t.db
      .selectFrom('app_conversations')
      .select('working_dir')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()) as {
      working_dir: string;
    };
    expect((await json(t, 'GET', `${workspace}/changes`)).json()).toEqual([]);
    await runIn(t, sandboxId, dir, ['sh', '-c', 'echo "print(2)" > src/app.py && echo new > NOTES.md']);

    expect((await json(t, 'GET', `${workspace}/changes`)).json()).toEqual([
      { status: 'ADDED', path: 'NOTES.md' },
      { status: 'UPDATED', path: 'src/app.py' },
    ]);
    expect((await json(t, 'GET', `${workspace}/diff?path=src/app.py`)).json()).toEqual({ original: 'print(1)\n', modified: 'print(2)\n' });
    const listing = (await json(t, 'GET', `${workspace}/files`)).json();
    expect(listing.entries.map((entry: { name: string }) => entry.name)).toEqual(['.git', 'src', 'NOTES.md', 'README.md']);
    expect((await json(t, 'GET', `${workspace}/files?path=src`)).json().entries).toMatchObject([{ name: 'app.py', type: 'file', size: 9 }]);

    const file = await json(t, 'GET', `${workspace}/file?path=src/app.py`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe("attachment; filename*=UTF-8''app.py");
    expect(file.body).toBe('print(2)\n');
    const archive = await t.request({ method: 'GET', url: `${workspace}/archive` });
    expect(archive.statusCode).toBe(200);
    expect(archive.headers['content-type']).toBe('application/gzip');
    expect(archive.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    // Paths stay inside the workspace; what is not there is a 404.
    for (const bad of ['../etc/passwd', '/etc/passwd', 'src/../../x']) {
      const refused = await json(t, 'GET', `${workspace}/file?path=${encodeURIComponent(bad)}`);
      expect(refused.statusCode, bad).toBe(422);
      expect(refused.json().detail[0].loc).toEqual(['query', 'path']);
    }
    expect((await json(t, 'GET', `${workspace}/file?path=missing.txt`)).statusCode).toBe(404);
    expect((await json(t, 'GET', `/api/v1/app-conversations/${'f'.repeat(32)}/workspace/changes`)).statusCode).toBe(404);
    // A link the agent made out of the workspace is listed, and not followed: a 422 at the path.
    await runIn(t, sandboxId, dir, ['ln', '-s', '/', 'host']);
    expect((await json(t, 'GET', `${workspace}/files`)).json().entries).toContainEqual(
      expect.objectContaining({ name: 'host', type: 'link', link_target: '/' }),
    );
    for (const through of ['files?path=host', 'files?path=host/etc', 'file?path=host/etc/passwd', 'diff?path=host/etc/passwd']) {
      const refused = await json(t, 'GET', `${workspace}/${through}`);
      expect(refused.statusCode, through).toBe(422);
      expect(refused.json().detail, through).toEqual([
        expect.objectContaining({ loc: ['query', 'path'], msg: 'Value error, host is a link out of the workspace: it is not followed' }),
      ]);
    }
    await runIn(t, sandboxId, dir, ['rm', 'host']);

    expect((await json(t, 'GET', `/api/conversations/${id}/config`)).json()).toEqual({ runtime_id: sandboxId, session_id: id });
    expect((await json(t, 'GET', `/api/conversations/${'f'.repeat(32)}/config`)).statusCode).toBe(404);

    // A workspace without a repository is made one: what the agent writes there shows as added.
    const empty = (await startAndWait(t, { title: 'No repository' })).app_conversation_id!;
    const emptyRecord = await t.db
      .selectFrom('app_conversations')
      .select(['working_dir', 'sandbox_id'])
      .where('id', '=', empty)
      .executeTakeFirstOrThrow();
    await runIn(t, emptyRecord.sandbox_id, emptyRecord.working_dir!, ['sh', '-c', 'echo hi > hello.txt']);
    expect((await json(t, 'GET', `/api/v1/app-conversations/${empty}/workspace/changes`)).json()).toEqual([
      { status: 'ADDED', path: 'hello.txt' },
    ]);

    // A paused sandbox says what to do.
    expect((await json(t, 'POST', `/api/v1/sandboxes/${sandboxId}/pause`)).statusCode).toBe(200);
    const paused = await json(t, 'GET', `${workspace}/changes`);
    expect(paused.statusCode).toBe(409);
    expect(paused.json().detail).toContain('resume its sandbox first');
  });

  it('is renamed, archived and deleted; a sandbox it did not create stays', async () => {
    const t = await app();
    const sandbox = (await json(t, 'POST', '/api/v1/sandboxes')).json();
    const own = await startAndWait(t, { title: 'Own sandbox' });
    const shared = await startAndWait(t, { sandbox_id: sandbox.id, title: 'Borrowed sandbox' });
    const id = shared.app_conversation_id!;

    const renamed = await json(t, 'PATCH', `/api/v1/app-conversations/${id}`, { title: '  Renamed  ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().title).toBe('Renamed');
    expect((await json(t, 'PATCH', `/api/conversations/${id}`, { title: 'Legacy name' })).json()).toBe(true);
    expect((await conversation(t, id)).title).toBe('Legacy name');
    expect((await json(t, 'PATCH', `/api/v1/app-conversations/${id}`, { title: '' })).statusCode).toBe(422);

    await json(t, 'PATCH', `/api/v1/app-conversations/${id}`, { archived: true });
    const visible = (await json(t, 'GET', '/api/v1/app-conversations/search')).json().items.map((c: { id: string }) => c.id);
    expect(visible).toEqual([own.app_conversation_id]);
    const archived = (await json(t, 'GET', '/api/v1/app-conversations/search?archived=true')).json().items.map((c: { id: string }) => c.id);
    expect(archived).toEqual([id]);

    expect((await json(t, 'DELETE', `/api/v1/app-conversations/${id}`)).json()).toEqual({ success: true });
    expect(await conversation(t, id)).toBeNull();
    expect((await json(t, 'GET', `/api/v1/sandboxes?id=${sandbox.id}`)).json()[0]).not.toBeNull(); // not its own: kept
    expect((await json(t, 'GET', `/api/v1/app-conversations/start-tasks?ids=${shared.id}`)).json()).toEqual([null]);

    expect((await json(t, 'DELETE', `/api/conversations/${own.app_conversation_id}`)).json()).toBe(true);
    expect((await json(t, 'GET', `/api/v1/sandboxes?id=${own.sandbox_id}`)).json()).toEqual([null]); // its own: gone
    expect((await json(t, 'DELETE', `/api/v1/app-conversations/${id}`)).statusCode).toBe(404);
    expect((await json(t, 'PATCH', `/api/v1/app-conversations/${'c'.repeat(32)}`, { title: 'x' })).statusCode).toBe(404);
  });
});

/* Search and count: rows seeded straight into the store. */
const DAY = 86_400_000;
const base = Date.parse('2026-01-01T00:00:00Z');
const words = ['Alpha', 'beta', 'Gamma', 'delta'];

/** `count` conversations with titles "<word> task <n>", one minute apart, updated in reverse order. */
async function seed(t: TestApp, count: number, from = 0) {
  const rows = Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return conversationRecord({
      id: n.toString(16).padStart(32, '0'),
      sandbox_id: `sandbox-${n % 3}`,
      title: `${words[n % words.length]} task ${n}`,
      archived: n % 10 === 9 ? 1 : 0,
      created_at: new Date(base + n * 60_000).toISOString(),
      updated_at: new Date(base + DAY - n * 60_000).toISOString(),
    });
  });
  for (let i = 0; i < rows.length; i += 200)
    await t.db
      .insertInto('app_conversations')
      .values(rows.slice(i, i + 200))
      .execute();
}

const search = async (t: TestApp, query: string) => {
  const response = await json(t, 'GET', `/api/v1/app-conversations/search?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { items: { id: string; title: string; created_at: string }[]; next_page_id: string | null };
};
const count = async (t: TestApp, query: string) => (await json(t, 'GET', `/api/v1/app-conversations/count?${query}`)).json() as number;

async function all(t: TestApp, query: string, during?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let pageId: string | null = null;
  for (let page = 0; page < 100; page++) {
    const result = await search(t, `${query}&limit=100${pageId ? `&page_id=${pageId}` : ''}`);
    ids.push(...result.items.map((item) => item.id));
    await during?.(page);
    pageId = result.next_page_id;
    if (!pageId) break;
  }
  return ids;
}

describe.each(databasesUnderTest())('search and count on %s', (database) => {
  it('pages through 1,000 rows in every order without gaps or repeats, also while rows are added, and counts what it pages', async () => {
    const t = await app({ database });
    await seed(t, 1000);
    const visible = 900; // every tenth is archived

    const newestFirst = await all(t, 'sort_order=CREATED_AT_DESC', async (page) => {
      if (page === 2) await seed(t, 20, 5000); // newer rows arrive mid-way: they are before the cursor
    });
    expect(newestFirst).toHaveLength(visible);
    expect(new Set(newestFirst).size).toBe(visible);
    expect(await count(t, '')).toBe(visible + 18);

    for (const sort of ['CREATED_AT', 'UPDATED_AT', 'UPDATED_AT_DESC', 'TITLE', 'TITLE_DESC']) {
      const ids = await all(t, `sort_order=${sort}`);
      expect(ids, sort).toHaveLength(visible + 18);
      expect(new Set(ids).size, sort).toBe(visible + 18);
    }
    const titles = (await search(t, 'sort_order=TITLE&limit=5')).items.map((item) => item.title);
    expect(titles).toEqual([...titles].sort());
  });

  it('filters by title (any case, short terms too), dates, sandbox and archived, and counts exactly what search finds', async () => {
    const t = await app({ database });
    await seed(t, 200);
    for (const query of [
      'title__contains=alpha',
      'title__contains=ALPHA%20task%201',
      'title__contains=ta',
      'title__contains=k%201',
      `created_at__gte=${encodeURIComponent(new Date(base + 50 * 60_000).toISOString())}&created_at__lt=${encodeURIComponent(new Date(base + 60 * 60_000).toISOString())}`,
      `updated_at__gte=${encodeURIComponent(new Date(base + DAY - 10 * 60_000).toISOString())}`,
      'sandbox_id__eq=sandbox-1',
      'archived=true',
      'title__contains=beta&archived=true',
    ]) {
      const found = await all(t, query);
      expect(found.length, query).toBeGreaterThan(0);
      expect(await count(t, query), query).toBe(found.length);
    }
    const alpha = (await search(t, 'title__contains=aLpHa&limit=100')).items;
    expect(alpha.every((item) => item.title.startsWith('Alpha'))).toBe(true);
    expect((await search(t, 'title__contains=%22%20OR%20x')).items).toEqual([]); // FTS syntax is taken as text
    const window = (
      await search(
        t,
        `created_at__gte=${encodeURIComponent(new Date(base + 50 * 60_000).toISOString())}&created_at__lt=${encodeURIComponent(new Date(base + 60 * 60_000).toISOString())}&limit=100`,
      )
    ).items;
    expect(window).toHaveLength(9); // 50…59, less the archived 59
  });

  it('writes each search item as a lookup by id builds it, also after a change of a field it holds', async () => {
    const t = await app({ database });
    const at = (minute: number) => new Date(base + minute * 60_000).toISOString();
    const [plain, full] = ['a'.repeat(32), 'b'.repeat(32)];
    await t.db
      .insertInto('app_conversations')
      .values([
        conversationRecord({ id: plain, title: 'Quokka "quoted" \\ ünïcode', created_at: at(1), updated_at: at(1) }),
        conversationRecord({
          id: full,
          title: 'Quokka with everything',
          selected_repository: 'octo/hello',
          selected_branch: 'main',
          git_provider: 'github',
          trigger: 'gui',
          pr_number: '[12,13]',
          llm_model: 'openai/gpt-4o',
          parent_conversation_id: plain,
          skills: '["lint","test"]',
          created_at: at(2),
          updated_at: at(3),
        }),
      ])
      .execute();
    /** The items of a search, beside the same conversations looked up by id (built from their columns). */
    const searchedAndLookedUp = async (query: string) => {
      const items = (await search(t, query)).items;
      if (items.length === 0) return [items, []];
      const byId = await json(t, 'GET', `/api/v1/app-conversations?${items.map((item) => `ids=${item.id}`).join('&')}`);
      // Sub-conversation ids are filled by a lookup only, as OpenHands fills them.
      return [items, byId.json().map((item: object) => ({ ...item, sub_conversation_ids: [] }))];
    };
    const compare = async () => {
      // The title search in creation order is written by a query of its own on SQLite.
      for (const query of ['limit=10', 'title__contains=quokka', 'title__contains=quokka&sort_order=TITLE', 'archived=true'].map(
        (query) => `${query}&include_sub_conversations=true`,
      )) {
        const [searched, lookedUp] = await searchedAndLookedUp(query);
        expect(searched, query).toEqual(lookedUp);
      }
    };
    await compare();
    expect((await search(t, 'limit=10&include_sub_conversations=true')).items.map((item) => item.id)).toEqual([full, plain]);
    await json(t, 'PATCH', `/api/v1/app-conversations/${full}`, { title: 'Quokka renamed' });
    await json(t, 'PATCH', `/api/v1/app-conversations/${plain}`, { archived: true });
    await compare();
    expect((await search(t, 'title__contains=renamed&include_sub_conversations=1')).items).toMatchObject([
      { id: full, title: 'Quokka renamed', pr_number: [12, 13] },
    ]);
    expect((await search(t, 'archived=true')).items).toMatchObject([{ id: plain, archived: true }]);
  });

  it('hides sub-conversations from search and count unless asked for, and lists them in their parent by batch get', async () => {
    const t = await app({ database });
    const at = (minute: number) => new Date(base + minute * 60_000).toISOString();
    const [parent, first, second] = ['a', 'b', 'c'].map((c) => c.repeat(32)) as [string, string, string];
    await t.db
      .insertInto('app_conversations')
      .values([
        conversationRecord({ id: parent, title: 'Parent', created_at: at(1), updated_at: at(1) }),
        conversationRecord({ id: second, title: 'Second', parent_conversation_id: parent, created_at: at(3), updated_at: at(3) }),
        conversationRecord({ id: first, title: 'First', parent_conversation_id: parent, created_at: at(2), updated_at: at(2) }),
      ])
      .execute();
    expect((await search(t, 'limit=10')).items.map((item) => item.id)).toEqual([parent]);
    expect((await search(t, 'limit=10&include_sub_conversations=true')).items.map((item) => item.id)).toEqual([second, first, parent]);
    expect((await json(t, 'GET', '/api/v1/app-conversations/count')).json()).toBe(1);
    expect((await json(t, 'GET', '/api/v1/app-conversations/count?include_sub_conversations=true')).json()).toBe(3);
    const batch = (await json(t, 'GET', `/api/v1/app-conversations?ids=${first}&ids=${parent}`)).json();
    expect(batch).toMatchObject([
      { id: first, parent_conversation_id: parent, sub_conversation_ids: [] },
      { id: parent, sub_conversation_ids: [first, second] },
    ]);
    // Their parent deleted, they are conversations of their own: listed again.
    expect((await json(t, 'DELETE', `/api/v1/app-conversations/${parent}`)).statusCode).toBe(200);
    expect((await search(t, 'limit=10')).items.map((item) => item.id)).toEqual([second, first]);
  });

  it('says which conversations each sandbox serves, in request order', async () => {
    const t = await app({ database });
    const at = (minute: number) => new Date(base + minute * 60_000).toISOString();
    await t.db
      .insertInto('app_conversations')
      .values([
        conversationRecord({ id: 'a'.repeat(32), title: 'First', sandbox_id: 's1', created_at: at(1), updated_at: at(1) }),
        conversationRecord({ id: 'b'.repeat(32), title: 'Second', sandbox_id: 's1', created_at: at(2), updated_at: at(2) }),
        conversationRecord({ id: 'c'.repeat(32), title: 'Elsewhere', sandbox_id: 's2', created_at: at(3), updated_at: at(3) }),
      ])
      .execute();
    const response = await json(t, 'GET', '/api/v1/app-conversations/by-sandbox?sandbox_id=s3&sandbox_id=s1');
    expect(response.json()).toEqual([
      { sandbox_id: 's3', conversations: [] },
      {
        sandbox_id: 's1',
        conversations: [
          { id: 'a'.repeat(32), title: 'First' },
          { id: 'b'.repeat(32), title: 'Second' },
        ],
      },
    ]);
    const many = Array.from({ length: 101 }, (_, i) => `sandbox_id=s${i}`).join('&');
    expect((await json(t, 'GET', `/api/v1/app-conversations/by-sandbox?${many}`)).statusCode).toBe(400);
  });

  it('responds to batch gets in request order with null for unknown ids, and refuses bad paging', async () => {
    const t = await app({ database });
    await seed(t, 3);
    const ids = ['2'.padStart(32, '0'), 'f'.repeat(32), '00000000-0000-0000-0000-000000000000'];
    const batch = (await json(t, 'GET', `/api/v1/app-conversations?${ids.map((id) => `ids=${id}`).join('&')}`)).json();
    expect(batch.map((c: { id: string } | null) => c?.id ?? null)).toEqual([ids[0], null, '0'.repeat(32)]);
    expect(batch[0]).toMatchObject({ sandbox_status: 'MISSING', execution_status: null, conversation_url: null, session_api_key: null });

    const firstPage = (await json(t, 'GET', '/api/v1/app-conversations?limit=2')).json();
    expect(firstPage.items).toHaveLength(2);

    const many = Array.from({ length: 101 }, (_, i) => `ids=${i.toString(16).padStart(32, '0')}`).join('&');
    const tooMany = await json(t, 'GET', `/api/v1/app-conversations?${many}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ detail: 'Cannot request more than 100 conversations at once, got 101' });
    for (const query of ['limit=0', 'limit=101', 'page_id=bogus', 'sort_order=SIZE', 'created_at__gte=yesterday']) {
      const response = await json(t, 'GET', `/api/v1/app-conversations/search?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(response.json().detail[0].loc[0]).toBe('query');
    }
    const byTitle = (await search(t, 'sort_order=TITLE&limit=1')).next_page_id!;
    expect((await json(t, 'GET', `/api/v1/app-conversations/search?sort_order=CREATED_AT&page_id=${byTitle}`)).statusCode).toBe(422);
  });
});

describe('search plans on SQLite', () => {
  it('a title search in creation order reads the trigram index in rowid order, each row by its rowid, and sorts only the page', async () => {
    const t = await app();
    await seed(t, 300);
    // In creation order: the trigram index's matches in their rowid order (64: ascending, newest
    // first; 192: descending), from the cursor's rowid on (> or <), each row found by its rowid;
    // only the page read is sorted. (server/store/query-plans.test.ts holds every other search to an index.)
    const cursor = { value: new Date(base).toISOString(), id: 'x' };
    for (const [sort, withCursor, index] of [
      ['CREATED_AT_DESC', false, '64:M1'],
      ['CREATED_AT_DESC', true, '64:M1>'],
      ['CREATED_AT', false, '192:M1'],
      ['CREATED_AT', true, '192:M1<'],
    ] as const) {
      const recording = recordingQueries(t.db);
      await new ConversationsStore(recording.db).search(
        'default',
        { archived: false, title__contains: 'alpha' },
        sort,
        withCursor ? cursor : undefined,
        100,
      );
      expect(await planOf(t.db, recording.queries[0]!), `${sort}, cursor: ${withCursor}`).toEqual([
        'CO-ROUTINE page',
        `SCAN app_conversation_titles VIRTUAL TABLE INDEX ${index}`,
        'SEARCH app_conversations USING INTEGER PRIMARY KEY (rowid=?)',
        'SCAN page',
        'USE TEMP B-TREE FOR ORDER BY',
      ]);
    }
  });
});

// The start tasks' registry: on both databases.
describe.each(databasesUnderTest())('start tasks on %s', (database) => {
  it('are searched, sorted and counted', async () => {
    const t = await app({ database });
    const first = await startAndWait(t, { title: 'one' });
    const second = await startAndWait(t, { title: 'two' });
    const page = (await json(t, 'GET', '/api/v1/app-conversations/start-tasks/search')).json();
    expect(page.items.map((item: StartTask) => item.id)).toEqual([second.id, first.id]);
    const oldest = (await json(t, 'GET', '/api/v1/app-conversations/start-tasks/search?sort_order=CREATED_AT&limit=1')).json();
    expect(oldest.items.map((item: StartTask) => item.id)).toEqual([first.id]);
    expect(oldest.next_page_id).toEqual(expect.any(String));
    expect((await json(t, 'GET', '/api/v1/app-conversations/start-tasks/count')).json()).toBe(2);
    const byConversation = `conversation_id__eq=${first.app_conversation_id}`;
    expect((await json(t, 'GET', `/api/v1/app-conversations/start-tasks/count?${byConversation}`)).json()).toBe(1);
    expect((await json(t, 'GET', `/api/v1/app-conversations/start-tasks/search?${byConversation}`)).json().items[0].id).toBe(first.id);
  });

  it.each([
    ['a sandbox that does not exist', { sandbox_id: 'no-such-sandbox' }, 'Sandbox no-such-sandbox does not exist (any more)'],
    [
      'a repository without a connected provider',
      { selected_repository: 'octo/hello' },
      'Choose a git provider for octo/hello: none is connected',
    ],
  ])('ends in ERROR with a readable detail for %s', async (_name, body, detail) => {
    const t = await app({ database });
    const done = await startAndWait(t, body);
    expect(done).toMatchObject({ status: 'ERROR', detail });
  });

  it('marks a start a stopped server left mid-way as interrupted', async () => {
    const own = database === 'postgres' ? await freshPostgresDatabase() : undefined;
    let dataDir: string | undefined;
    try {
      const first = await startTestApp({ databaseUrl: own?.url });
      dataDir = first.dataDir;
      try {
        await first.db
          .insertInto('start_tasks')
          .values(startTaskRecord({ id: 'a'.repeat(32), status: 'RUNNING_SETUP_SCRIPT', owner_instance: first.services.instances.id }))
          .execute();
      } finally {
        await first.close({ keepData: true });
      }
      const second = await startTestApp({ dataDir, databaseUrl: own?.url });
      dataDir = undefined; // its close removes it
      try {
        expect(await task(second, 'a'.repeat(32))).toMatchObject({
          status: 'ERROR',
          detail: 'Interrupted by a server restart; start it again',
        });
      } finally {
        await second.close();
      }
    } finally {
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      await own?.drop();
    }
  });
});
