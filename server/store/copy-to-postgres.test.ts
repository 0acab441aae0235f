import { sessionKeyCaller } from '../authz/caller';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../secret-box';
import { builtServerScript } from '../testing/built-server';
import { conversationRecord, startTaskRecord } from '../testing/conversation-records';
import { addMember } from '../testing/team-members';
import { freshPostgresDatabase } from '../testing/databases';
import { startTestApp, TEST_SECRETS_KEY, type TestApp } from '../testing/test-app';
import { copySqliteToPostgres } from './copy-to-postgres';
import { EventsStore } from './events-store';

const cleanUps: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

async function app(options: Parameters<typeof startTestApp>[0]): Promise<TestApp> {
  const t = await startTestApp(options);
  cleanUps.push(() => t.close());
  return t;
}

const post = (t: TestApp, url: string, body: unknown) =>
  t.request({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

const migrate = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  promisify(execFile)(process.execPath, [builtServerScript('migrate-to-postgres'), ...args], { env: { ...process.env, ...env } });

/** An LLM call of the copied conversation, as the LLM proxy records one. */
const llmCall = (at: string) => ({
  user_id: 'default',
  conversation_id: 'a'.repeat(32),
  model: 'gpt-4o',
  status: 200,
  prompt_tokens: 1000,
  completion_tokens: 100,
  cache_read_tokens: 0,
  cost: 0.0035,
  created_at: at,
});

/** The API key of the team member `sqliteDataDir` adds. */
let memberKey = '';

/** A SQLite data dir with settings, secrets, a team member with an API key, a conversation and its events, left as a stopped server leaves it. */
async function sqliteDataDir(): Promise<string> {
  const t = await startTestApp();
  memberKey = (await addMember(t, 'copied@example.com', 'member')).key;
  expect((await t.postSettings({ llm_model: 'openai/gpt-4o', llm_api_key: 'sk-copied-key' })).statusCode).toBe(200);
  expect((await post(t, '/api/secrets', { name: 'DEPLOY_TOKEN', value: 'copied-secret', description: 'kept' })).statusCode).toBe(201);
  expect((await post(t, '/api/add-git-providers', { provider_tokens: { github: { token: 'ghp-copied' } } })).statusCode).toBe(200);
  await t.db
    .insertInto('app_conversations')
    .values(
      conversationRecord({
        id: 'a'.repeat(32),
        sandbox_id: 'gone',
        title: 'Copied conversation',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      }),
    )
    .execute();
  await new EventsStore(t.db).insertNew(
    ['e1', 'e2', 'e3'].map((id, i) => ({
      user_id: 'default',
      conversation_id: 'a'.repeat(32),
      event_id: id,
      kind: 'MessageEvent',
      source: 'user',
      timestamp: `2026-01-01T00:00:0${i}.000Z`,
      body: JSON.stringify({ id }),
    })),
  );
  await t.db.insertInto('llm_calls').values(llmCall('2026-01-01T00:00:05.000Z')).execute();
  await t.close({ keepData: true });
  cleanUps.push(async () => fs.rmSync(t.dataDir, { recursive: true, force: true }));
  return t.dataDir;
}

describe('npm run migrate-to-postgres', () => {
  it('copies a SQLite data dir, secrets still sealed, and refuses a second run', async () => {
    const dataDir = await sqliteDataDir();
    const target = await freshPostgresDatabase();
    cleanUps.push(target.drop);

    const { stdout } = await migrate(['--from', dataDir, '--to', target.url], { SECRETS_KEY: TEST_SECRETS_KEY });
    expect(stdout).toContain('conversation_events 3');
    expect(stdout).not.toContain(TEST_SECRETS_KEY);

    const t = await app({ databaseUrl: target.url });
    expect((await t.getSettings()).json()).toMatchObject({ llm_model: 'openai/gpt-4o', llm_api_key_set: true });
    expect(await t.services.secrets.readCustomSecrets(sessionKeyCaller)).toEqual([{ name: 'DEPLOY_TOKEN', value: 'copied-secret' }]);
    expect((await t.request({ method: 'GET', url: '/api/v1/app-conversations/search' })).json().items).toEqual([
      expect.objectContaining({ id: 'a'.repeat(32), title: 'Copied conversation' }),
    ]);
    expect((await t.request({ method: 'GET', url: '/api/v1/events/count' })).json()).toBe(3);
    // Stored sealed: the rows hold no plain secret.
    const text = await t.databaseText();
    for (const secret of ['sk-copied-key', 'copied-secret', 'ghp-copied']) expect(text).not.toContain(secret);
    // New events are numbered after the copied ones.
    const [next] = await new EventsStore(t.db).insertNew([
      {
        user_id: 'default',
        conversation_id: 'a'.repeat(32),
        event_id: 'e4',
        kind: 'MessageEvent',
        source: 'user',
        timestamp: '2026-01-01T00:00:09.000Z',
        body: '{}',
      },
    ]);
    expect(next!.seq).toBe(4);
    // The team came along: the member's key works, a new key is numbered after the copied one.
    const asMember = await t.app.inject({ method: 'GET', url: '/api/keys', headers: { 'x-session-api-key': memberKey } });
    expect(asMember.json()).toEqual([expect.objectContaining({ id: 1, name: 'tests' })]);
    expect((await post(t, '/api/keys', { name: 'after the copy' })).json()).toMatchObject({ id: 2 });
    // The LLM calls came along, and a new one is numbered after them.
    await t.db.insertInto('llm_calls').values(llmCall('2026-01-01T00:00:10.000Z')).execute();
    expect(await t.db.selectFrom('llm_calls').select(['id', 'created_at']).orderBy('id').execute()).toEqual([
      { id: 1, created_at: '2026-01-01T00:00:05.000Z' },
      { id: 2, created_at: '2026-01-01T00:00:10.000Z' },
    ]);

    const second = migrate(['--from', dataDir, '--to', target.url], { SECRETS_KEY: TEST_SECRETS_KEY });
    await expect(second).rejects.toMatchObject({ stderr: expect.stringContaining('already holds data'), code: 1 });
    expect((await t.request({ method: 'GET', url: '/api/v1/events/count' })).json()).toBe(4);
  });

  it('refuses a key the data dir was not sealed with, and copies nothing', async () => {
    const dataDir = await sqliteDataDir();
    const target = await freshPostgresDatabase();
    cleanUps.push(target.drop);
    const wrong = migrate(['--from', dataDir, '--to', target.url], { SECRETS_KEY: 'another-key' });
    await expect(wrong).rejects.toMatchObject({ stderr: expect.stringContaining('not the one the stored secrets were sealed with') });
    // Nothing copied: a run with the right key goes through.
    const counts = await copySqliteToPostgres(dataDir, target.url, new SecretBox(TEST_SECRETS_KEY));
    expect(counts).toMatchObject({ app_conversations: 1, conversation_events: 3, custom_secrets: 1, provider_tokens: 1 });
  });

  it("copied sandboxes and unfinished starts are the instance's that starts on the copied data dir, whichever instance starts first", async () => {
    const sqlite = await startTestApp();
    const now = new Date().toISOString();
    await sqlite.db
      .insertInto('sandboxes')
      .values({
        id: 'copied-sandbox',
        spec_id: 'shell',
        port: 1,
        session_key: new SecretBox(TEST_SECRETS_KEY).seal('its-key'),
        pid: null,
        process_start: null,
        created_at: now,
        started_at: now,
        exit_detail: 'Ended before the copy',
        image: null,
        owner_instance: null, // a single SQLite server records no owner
      })
      .execute();
    await sqlite.db
      .insertInto('start_tasks')
      // a task from before instances had owners
      .values(startTaskRecord({ id: 'copied-task', status: 'WORKING', owner_instance: null }))
      .execute();
    await sqlite.close({ keepData: true });
    cleanUps.push(async () => fs.rmSync(sqlite.dataDir, { recursive: true, force: true }));
    const target = await freshPostgresDatabase();
    cleanUps.push(target.drop);
    await copySqliteToPostgres(sqlite.dataDir, target.url, new SecretBox(TEST_SECRETS_KEY));

    const owners = async (t: TestApp) => ({
      sandbox: (await t.db.selectFrom('sandboxes').select('owner_instance').executeTakeFirstOrThrow()).owner_instance,
      task: (await t.db.selectFrom('start_tasks').select('owner_instance').executeTakeFirstOrThrow()).owner_instance,
    });
    // An instance on another host starts first: the sandbox is not its own (its processes are not there).
    const elsewhere = await app({ databaseUrl: target.url });
    const dataDirInstance = fs.readFileSync(path.join(sqlite.dataDir, 'instance-id'), 'utf8').trim();
    expect(await owners(elsewhere)).toEqual({ sandbox: dataDirInstance, task: dataDirInstance });
    expect((await elsewhere.request({ method: 'GET', url: '/api/v1/sandboxes?id=copied-sandbox' })).json()).toEqual([
      expect.objectContaining({ status: 'MISSING', status_detail: expect.stringContaining('not registered') }),
    ]);
    // The SQLite server that ran the start has stopped: the start does not wait for ever.
    expect(await elsewhere.db.selectFrom('start_tasks').select(['status', 'detail']).executeTakeFirstOrThrow()).toEqual({
      status: 'ERROR',
      detail: 'Interrupted: copied to PostgreSQL while unfinished; start it again',
    });
    // An earlier copy gave sandboxes no owner.
    await elsewhere.db.updateTable('sandboxes').set({ owner_instance: null }).where('id', '=', 'copied-sandbox').execute();
    expect((await elsewhere.request({ method: 'GET', url: '/api/v1/sandboxes?id=copied-sandbox' })).json()).toEqual([
      expect.objectContaining({
        status: 'MISSING',
        status_detail: expect.stringMatching(/^No server instance owns it: an earlier migrate-to-postgres/),
      }),
    ]);
    await elsewhere.db.updateTable('sandboxes').set({ owner_instance: dataDirInstance }).where('id', '=', 'copied-sandbox').execute();

    const onTheDataDir = await app({ databaseUrl: target.url, dataDir: sqlite.dataDir });
    expect(onTheDataDir.services.instances.id).toBe(dataDirInstance);
    expect((await onTheDataDir.request({ method: 'GET', url: '/api/v1/sandboxes?id=copied-sandbox' })).json()).toEqual([
      expect.objectContaining({ status: 'ERROR', status_detail: 'Ended before the copy' }),
    ]);
  });

  it('says how to call it', async () => {
    await expect(migrate(['--from', path.join('/nonexistent', 'data')], { DATABASE_URL: '' })).rejects.toMatchObject({
      stderr: expect.stringContaining('Usage: npm run migrate-to-postgres -- --from DATA_DIR --to postgres://'),
    });
  });
});
