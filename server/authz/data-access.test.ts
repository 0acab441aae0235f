import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Forbidden, NotFound } from '../domain-errors';
import { ConversationsStore } from '../store/conversations-store';
import { type Db, migrateToLatest, openPostgres, openSqlite } from '../store/database';
import { EventsStore, type NewEvent } from '../store/events-store';
import { SandboxesStore } from '../store/sandboxes-store';
import { StartTasksStore } from '../store/start-tasks-store';
import { UsersStore } from '../store/users-store';
import { conversationRecord, sandboxRecord, startTaskRecord } from '../testing/conversation-records';
import { databasesUnderTest, freshPostgresDatabase } from '../testing/databases';
import { ApiKeyRecords } from './api-keys';
import { LlmCallRecords } from './llm-calls';
import { asSystem, type Caller, OWNER_ID, sessionKeyCaller, type Subject } from './caller';
import { ConversationRecords } from './conversations';
import { DataAccess, type SubjectData, type UserDataStores, userDataStores } from './data-access';
import { EventRecords } from './events';
import { SandboxRecords } from './sandboxes';
import { SecretRecords } from './secrets';
import { SettingsDocuments } from './settings';
import { StartTaskRecords } from './start-tasks';
import { UsageRecords } from './usage';
import { UserRecords } from './users';

/*
 * The data-access layer's authorization, method by method (as Coder's dbauthz suite is): for each,
 * whom it serves and whom it refuses. Its accounting fails for a method of the layer that no test
 * here checks, and for a store method that no method of the layer reaches (so one added to a store
 * cannot be used around the policy, nor forgotten in it).
 */

const owner = sessionKeyCaller;
const admin: Caller = { userId: 'admin', role: 'admin', authType: 'api_key' };
const alice: Caller = { userId: 'alice', role: 'member', authType: 'api_key' };
const bob: Caller = { userId: 'bob', role: 'member', authType: 'cookie' };
const owner2: Caller = { userId: 'owner2', role: 'owner', authType: 'cookie' };

const LAYER: Record<keyof SubjectData, { prototype: object }> = {
  conversations: ConversationRecords,
  sandboxes: SandboxRecords,
  startTasks: StartTaskRecords,
  events: EventRecords,
  settings: SettingsDocuments,
  secrets: SecretRecords,
  users: UserRecords,
  apiKeys: ApiKeyRecords,
  llmCalls: LlmCallRecords,
  usage: UsageRecords,
};

const methodsOf = (prototype: object) =>
  Object.getOwnPropertyNames(prototype).filter(
    (name) => name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(prototype, name)?.value === 'function',
  );

/** `layer.method` names that have a test here; filled as the tests are declared. */
const checked = new Set<string>();

/** Declares the authorization test of one method of the layer. */
function method(name: `${keyof SubjectData}.${string}`, test: () => Promise<void>): void {
  checked.add(name);
  it(name, test);
}

const refused = async (work: () => Promise<unknown>, kind: typeof Forbidden | typeof NotFound = Forbidden) => {
  await expect(work()).rejects.toBeInstanceOf(kind);
};

const sandbox = (id: string, owner: string) => sandboxRecord({ id, created_by_user_id: owner });

const event = (id: string, conversation: string, user: string): NewEvent => ({
  user_id: user,
  conversation_id: conversation,
  event_id: id,
  kind: 'MessageEvent',
  source: 'user',
  timestamp: new Date().toISOString(),
  body: JSON.stringify({ id, kind: 'MessageEvent' }),
});

const user = (id: string, role: string, status = 'active') => ({
  id,
  email: `${id}@example.com`,
  name: id,
  role,
  status,
  password_hash: null,
  created_at: new Date().toISOString(),
  invited_by: null,
  invitation_hash: status === 'invited' ? `hash-of-${id}` : null,
  invitation_expires_at: null,
});

/** The stores, each method counted as the layer reaches it. */
function countedStores(db: Db, reached: Set<string>): UserDataStores {
  const stores = userDataStores(db);
  for (const store of Object.values(stores) as object[]) {
    const prototype = Object.getPrototypeOf(store) as Record<string, (...args: unknown[]) => unknown>;
    for (const name of methodsOf(prototype)) {
      const original = prototype[name]!;
      Object.defineProperty(store, name, {
        value: (...args: unknown[]) => {
          reached.add(`${prototype.constructor.name}.${name}`);
          return original.apply(store, args);
        },
      });
    }
  }
  return stores;
}

describe.each(databasesUnderTest())('the data-access layer on %s', (database) => {
  let db: Db;
  let cleanUp: () => Promise<void>;
  let data: DataAccess;
  let stores: UserDataStores;
  const reached = new Set<string>();
  const as = (subject: Subject) => data.as(subject);

  beforeAll(async () => {
    if (database === 'postgres') {
      const { url, drop } = await freshPostgresDatabase();
      db = openPostgres(url);
      cleanUp = drop;
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-authz-'));
      db = openSqlite(dir);
      cleanUp = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    await migrateToLatest(db);
    stores = countedStores(db, reached);
    data = new DataAccess(stores);
    for (const [id, role] of [
      ['admin', 'admin'],
      ['alice', 'member'],
      ['bob', 'member'],
      ['owner2', 'owner'],
    ] as const)
      await new UsersStore(db).insert(user(id, role));
    await new SandboxesStore(db).insert(sandbox('sa', 'alice'));
    await new SandboxesStore(db).insert(sandbox('sb', 'bob'));
    await new ConversationsStore(db).insert(conversationRecord({ id: 'ca', user_id: 'alice', sandbox_id: 'sa' }));
    await new ConversationsStore(db).insert(conversationRecord({ id: 'cb', user_id: 'bob', sandbox_id: 'sb' }));
    await new StartTasksStore(db).insert(startTaskRecord({ id: 'ta', user_id: 'alice', app_conversation_id: 'ca' }));
    await new EventsStore(db).insertNew([event('ea', 'ca', 'alice'), event('eb', 'cb', 'bob')]);
  });

  afterAll(async () => {
    await db.destroy();
    await cleanUp();
  });

  describe('conversations', () => {
    method('conversations.insert', async () => {
      await as(alice).conversations.insert(conversationRecord({ id: 'c-new-alice', user_id: 'alice' }));
      await refused(() => as(admin).conversations.insert(conversationRecord({ id: 'c-for-alice', user_id: 'alice' })));
      await refused(() => as(asSystem('collect events')).conversations.insert(conversationRecord({ id: 'c-sys', user_id: 'alice' })));
    });

    method('conversations.get', async () => {
      expect(await as(alice).conversations.get('ca')).toMatchObject({ id: 'ca' });
      expect(await as(bob).conversations.get('ca')).toBeUndefined();
      expect(await as(admin).conversations.get('ca')).toMatchObject({ id: 'ca' });
      await refused(() => as(asSystem('forget a deleted user', 'alice')).conversations.get('ca'));
    });

    method('conversations.getMany', async () => {
      expect((await as(bob).conversations.getMany(['ca', 'cb'])).map((c) => c.id)).toEqual(['cb']);
      expect((await as(owner).conversations.getMany(['ca', 'cb'])).map((c) => c.id).sort()).toEqual(['ca', 'cb']);
    });

    method('conversations.authorize', async () => {
      expect(await as(alice).conversations.authorize('message', 'ca')).toMatchObject({ id: 'ca' });
      await refused(() => as(bob).conversations.authorize('message', 'ca'), NotFound);
      for (const action of ['message', 'approve', 'run', 'continue', 'workspace'] as const) {
        await expect(as(admin).conversations.authorize(action, 'ca')).rejects.toThrow(/Only the conversation's owner/);
      }
      for (const action of ['read', 'update', 'delete', 'pause'] as const) await as(admin).conversations.authorize(action, 'ca');
    });

    method('conversations.update', async () => {
      expect(await as(bob).conversations.update('ca', { title: 'Taken' })).toBe(false);
      expect(await as(admin).conversations.update('ca', { title: 'Renamed by an admin' })).toBe(true);
      expect(await as(alice).conversations.update('ca', { title: 'Alice’s again' })).toBe(true);
      await refused(() => as(asSystem('check a new conversation id is free')).conversations.update('ca', { title: 'x' }));
    });

    method('conversations.delete', async () => {
      await as(alice).conversations.insert(conversationRecord({ id: 'c-doomed', user_id: 'alice' }));
      expect(await as(bob).conversations.delete('c-doomed')).toBe(false);
      expect(await as(admin).conversations.delete('c-doomed')).toBe(true);
    });

    method('conversations.search', async () => {
      const titles = async (subject: Subject) =>
        (await as(subject).conversations.search({ archived: false }, 'CREATED_AT', undefined, 100)).rows.map((row) => row.id);
      expect(await titles(bob)).toEqual(['cb']);
      expect(await titles(admin)).toEqual(expect.arrayContaining(['ca', 'cb']));
      await refused(() => titles(asSystem('watch sandboxes')));
    });

    method('conversations.count', async () => {
      expect(await as(bob).conversations.count({ archived: false })).toBe(1);
      expect(await as(admin).conversations.count({ archived: false })).toBeGreaterThanOrEqual(2);
    });

    method('conversations.subConversationIds', async () => {
      await as(alice).conversations.insert(conversationRecord({ id: 'c-child', user_id: 'alice', parent_conversation_id: 'ca' }));
      expect((await as(bob).conversations.subConversationIds(['ca'])).size).toBe(0);
      expect((await as(admin).conversations.subConversationIds(['ca'])).get('ca')).toEqual(['c-child']);
    });

    method('conversations.bySandbox', async () => {
      expect(await as(bob).conversations.bySandbox(['sa'])).toEqual([]);
      expect((await as(alice).conversations.bySandbox(['sa'])).map((c) => c.id)).toContain('ca');
    });

    method('conversations.inSandboxes', async () => {
      expect(await as(bob).conversations.inSandboxes(['sa'])).toEqual([]);
      expect((await as(asSystem('collect events')).conversations.inSandboxes(['sa', 'sb'])).map((c) => c.id)).toEqual(
        expect.arrayContaining(['ca', 'cb']),
      );
    });

    method('conversations.countUsingSandbox', async () => {
      expect(await as(bob).conversations.countUsingSandbox('sa')).toBe(0);
      expect(await as(asSystem('count the conversations in a sandbox')).conversations.countUsingSandbox('sa')).toBeGreaterThan(0);
    });
  });

  describe('sandboxes', () => {
    method('sandboxes.list', async () => {
      expect((await as(bob).sandboxes.list()).map((s) => s.id)).toEqual(['sb']);
      expect((await as(admin).sandboxes.list()).map((s) => s.id).sort()).toEqual(expect.arrayContaining(['sa', 'sb']));
      expect((await as(asSystem('end a user’s access', 'alice')).sandboxes.list()).map((s) => s.id)).toEqual(['sa']);
      await refused(() => as(asSystem('identify a request')).sandboxes.list());
    });

    method('sandboxes.get', async () => {
      expect(await as(bob).sandboxes.get('sa')).toBeUndefined();
      expect(await as(admin).sandboxes.get('sa')).toMatchObject({ id: 'sa' });
    });

    method('sandboxes.getMany', async () => {
      expect((await as(bob).sandboxes.getMany(['sa', 'sb'])).map((s) => s.id)).toEqual(['sb']);
      expect((await as(owner).sandboxes.getMany(['sa', 'sb'])).length).toBe(2);
    });

    method('sandboxes.may', async () => {
      const record = (await as(admin).sandboxes.get('sa'))!;
      expect(as(admin).sandboxes.may('pause', record)).toBe(true);
      expect(as(admin).sandboxes.may('use', record)).toBe(false);
      expect(as(alice).sandboxes.may('use', record)).toBe(true);
      expect(as(asSystem('make room for a sandbox', 'bob')).sandboxes.may('pause', record)).toBe(false);
    });

    method('sandboxes.authorize', async () => {
      await refused(() => as(bob).sandboxes.authorize('pause', 'sa'), NotFound);
      await expect(as(admin).sandboxes.authorize('use', 'sa')).rejects.toThrow(/Only the sandbox's owner/);
      expect(await as(admin).sandboxes.authorize('pause', 'sa')).toMatchObject({ id: 'sa' });
      expect(await as(alice).sandboxes.authorize('use', 'sa')).toMatchObject({ id: 'sa' });
    });

    method('sandboxes.count', async () => {
      expect(await as(asSystem('count sandboxes against the limits')).sandboxes.count()).toBeGreaterThanOrEqual(2);
      await refused(() => as(alice).sandboxes.count());
    });

    method('sandboxes.insert', async () => {
      await as(bob).sandboxes.insert(sandbox('s-new-bob', 'bob'));
      await refused(() => as(admin).sandboxes.insert(sandbox('s-for-bob', 'bob')));
    });

    method('sandboxes.update', async () => {
      await refused(() => as(bob).sandboxes.update('sa', { exit_detail: 'broken by bob' }), NotFound);
      await as(asSystem('watch sandboxes')).sandboxes.update('sa', { exit_detail: null });
      await refused(() => as(asSystem('collect events')).sandboxes.update('sa', { exit_detail: 'x' }));
    });

    method('sandboxes.delete', async () => {
      await as(bob).sandboxes.insert(sandbox('s-doomed', 'bob'));
      await refused(() => as(alice).sandboxes.delete('s-doomed'), NotFound);
      await as(admin).sandboxes.delete('s-doomed');
      expect(await as(admin).sandboxes.get('s-doomed')).toBeUndefined();
    });
  });

  describe('start tasks', () => {
    method('startTasks.insert', async () => {
      await as(alice).startTasks.insert(startTaskRecord({ id: 't-alice', user_id: 'alice' }));
      await refused(() => as(admin).startTasks.insert(startTaskRecord({ id: 't-for-alice', user_id: 'alice' })));
    });

    method('startTasks.get', async () => {
      expect(await as(bob).startTasks.get('ta')).toBeUndefined();
      expect(await as(admin).startTasks.get('ta')).toMatchObject({ id: 'ta' });
    });

    method('startTasks.getMany', async () => {
      expect(await as(bob).startTasks.getMany(['ta'])).toEqual([]);
      expect((await as(alice).startTasks.getMany(['ta'])).map((task) => task.id)).toEqual(['ta']);
    });

    method('startTasks.update', async () => {
      expect(await as(admin).startTasks.update('ta', { detail: 'an admin was here' })).toBe(false);
      expect(await as(alice).startTasks.update('ta', { detail: 'step' })).toBe(true);
    });

    method('startTasks.unfinished', async () => {
      expect((await as(asSystem('recover sandboxes after a restart')).startTasks.unfinished('nobody')).length).toBeGreaterThan(0);
      await refused(() => as(admin).startTasks.unfinished('nobody'));
    });

    method('startTasks.interruptOfGoneInstances', async () => {
      await as(asSystem('end the starts of gone instances')).startTasks.interruptOfGoneInstances('me', '2000-01-01', 'gone', 'now');
      await refused(() => as(owner).startTasks.interruptOfGoneInstances('me', '2000-01-01', 'gone', 'now'));
    });

    method('startTasks.delete', async () => {
      await as(alice).startTasks.insert(startTaskRecord({ id: 't-doomed', user_id: 'alice' }));
      await as(bob).startTasks.delete('t-doomed');
      expect(await as(alice).startTasks.get('t-doomed')).toBeDefined();
      await as(admin).startTasks.delete('t-doomed');
      expect(await as(alice).startTasks.get('t-doomed')).toBeUndefined();
    });

    method('startTasks.deleteForConversation', async () => {
      await as(alice).startTasks.insert(startTaskRecord({ id: 't-of-c', user_id: 'alice', app_conversation_id: 'c-x' }));
      await as(bob).startTasks.deleteForConversation('c-x');
      expect(await as(alice).startTasks.get('t-of-c')).toBeDefined();
      await as(alice).startTasks.deleteForConversation('c-x');
      expect(await as(alice).startTasks.get('t-of-c')).toBeUndefined();
    });

    method('startTasks.search', async () => {
      expect((await as(bob).startTasks.search({}, 'CREATED_AT', 0, 100)).rows.map((task) => task.id)).not.toContain('ta');
      expect((await as(admin).startTasks.search({}, 'CREATED_AT', 0, 100)).rows.map((task) => task.id)).toContain('ta');
    });

    method('startTasks.count', async () => {
      expect(await as(bob).startTasks.count({ conversation_id__eq: 'ca' })).toBe(0);
      expect(await as(alice).startTasks.count({ conversation_id__eq: 'ca' })).toBe(1);
    });
  });

  describe('events', () => {
    method('events.insertNew', async () => {
      expect(await as(asSystem('collect events')).events.insertNew([event('ea2', 'ca', 'alice')])).toHaveLength(1);
      await refused(() => as(alice).events.insertNew([event('ea3', 'ca', 'alice')]));
      await refused(() => as(owner).events.insertNew([event('ea4', 'ca', 'alice')]));
    });

    method('events.search', async () => {
      const ids = async (subject: Subject) =>
        (await as(subject).events.search({}, false, undefined, 100)).rows.map((row) => (JSON.parse(row.body) as { id: string }).id);
      expect(await ids(bob)).toEqual(['eb']);
      expect(await ids(admin)).toEqual(expect.arrayContaining(['ea', 'eb']));
    });

    method('events.count', async () => {
      expect(await as(bob).events.count({ conversation_id__eq: 'ca' })).toBe(0);
      expect(await as(alice).events.count({ conversation_id__eq: 'ca' })).toBeGreaterThan(0);
    });

    method('events.getMany', async () => {
      expect(await as(bob).events.getMany(['ea'])).toEqual([]);
      expect((await as(admin).events.getMany(['ea'])).map((e) => e.event_id)).toEqual(['ea']);
    });

    method('events.seqOf', async () => {
      expect(await as(bob).events.seqOf('ca', 'ea')).toBeUndefined();
      expect(await as(alice).events.seqOf('ca', 'ea')).toEqual(expect.any(Number));
    });

    method('events.after', async () => {
      expect(await as(bob).events.after('ca', 0, 10)).toEqual([]);
      expect((await as(asSystem('relay events stored by other instances')).events.after('ca', 0, 10)).length).toBeGreaterThan(0);
      await refused(() => as(asSystem('watch sandboxes')).events.after('ca', 0, 10));
    });
  });

  describe('settings', () => {
    method('settings.update', async () => {
      await as(alice).settings.update('alice', () => '{"llm_model":"alice/model"}');
      await refused(() => as(admin).settings.update('alice', () => '{}'), NotFound);
    });

    method('settings.load', async () => {
      expect(await as(alice).settings.load('alice')).toContain('alice/model');
      await refused(() => as(admin).settings.load('alice'), NotFound);
      await refused(() => as(owner).settings.load('alice'), NotFound);
      expect(await as(asSystem('create a conversation again in its restarted agent server', 'alice')).settings.load('alice')).toBeDefined();
      await refused(
        () => as(asSystem('create a conversation again in its restarted agent server', 'bob')).settings.load('alice'),
        NotFound,
      );
    });

    method('settings.delete', async () => {
      await refused(() => as(alice).settings.delete('alice'));
      await as(asSystem('forget a deleted user', 'alice')).settings.delete('alice');
      expect(await as(alice).settings.load('alice')).toBeUndefined();
    });

    method('settings.updateTeamDefaults', async () => {
      await as(admin).settings.updateTeamDefaults(() => '{"llm_model":"team/model"}');
      await refused(() => as(alice).settings.updateTeamDefaults(() => '{}'));
    });

    method('settings.loadTeamDefaults', async () => {
      expect(await as(bob).settings.loadTeamDefaults()).toContain('team/model');
      await refused(() => as(asSystem('collect events')).settings.loadTeamDefaults());
    });
  });

  describe('secrets', () => {
    const token = { provider: 'github', token: 'sealed-token', host: null, checked_at: null };

    method('secrets.updateProviderTokens', async () => {
      await as(alice).secrets.updateProviderTokens('alice', () => [token]);
      await refused(() => as(admin).secrets.updateProviderTokens('alice', () => []), NotFound);
    });

    method('secrets.listProviderTokens', async () => {
      expect(await as(alice).secrets.listProviderTokens('alice')).toHaveLength(1);
      for (const other of [admin, owner, bob]) await refused(() => as(other).secrets.listProviderTokens('alice'), NotFound);
    });

    method('secrets.recordProviderCheck', async () => {
      await as(alice).secrets.recordProviderCheck('alice', token, new Date().toISOString());
      await refused(() => as(admin).secrets.recordProviderCheck('alice', token, null), NotFound);
    });

    method('secrets.insertCustomSecret', async () => {
      expect(await as(alice).secrets.insertCustomSecret('alice', { name: 'A', value: 'sealed', description: '' })).toBe(true);
      await refused(() => as(owner).secrets.insertCustomSecret('alice', { name: 'B', value: 'x', description: '' }), NotFound);
    });

    method('secrets.listCustomSecrets', async () => {
      expect((await as(alice).secrets.listCustomSecrets('alice')).map((secret) => secret.name)).toEqual(['A']);
      await refused(() => as(admin).secrets.listCustomSecrets('alice'), NotFound);
      expect(
        await as(asSystem('create a conversation again in its restarted agent server', 'alice')).secrets.listCustomSecrets('alice'),
      ).toHaveLength(1);
    });

    method('secrets.updateCustomSecret', async () => {
      expect(await as(alice).secrets.updateCustomSecret('alice', 'A', { description: 'mine' })).toBe('updated');
      await refused(() => as(admin).secrets.updateCustomSecret('alice', 'A', { value: 'x' }), NotFound);
    });

    method('secrets.upsertCustomSecrets', async () => {
      await as(alice).secrets.upsertCustomSecrets('alice', [{ name: 'C', value: 'sealed' }]);
      await refused(() => as(admin).secrets.upsertCustomSecrets('alice', [{ name: 'D', value: 'x' }]), NotFound);
    });

    method('secrets.deleteCustomSecret', async () => {
      await refused(() => as(bob).secrets.deleteCustomSecret('alice', 'C'), NotFound);
      expect(await as(alice).secrets.deleteCustomSecret('alice', 'C')).toBe(true);
    });

    method('secrets.deleteAll', async () => {
      await refused(() => as(alice).secrets.deleteAll('alice'));
      await refused(() => as(asSystem('forget a deleted user', 'bob')).secrets.deleteAll('alice'), NotFound);
      await as(asSystem('forget a deleted user', 'alice')).secrets.deleteAll('alice');
      expect(await as(alice).secrets.listCustomSecrets('alice')).toEqual([]);
    });
  });

  describe('users', () => {
    method('users.get', async () => {
      expect(await as(alice).users.get('alice')).toMatchObject({ id: 'alice' });
      expect(await as(alice).users.get('bob')).toBeUndefined();
      expect(await as(admin).users.get('bob')).toMatchObject({ id: 'bob' });
    });

    method('users.byEmail', async () => {
      expect(await as(asSystem('sign in')).users.byEmail('bob@example.com')).toMatchObject({ id: 'bob' });
      await refused(() => as(alice).users.byEmail('bob@example.com'));
    });

    method('users.byInvitation', async () => {
      await as(owner).users.invite(user('invited', 'member', 'invited'));
      expect(await as(asSystem('accept an invitation')).users.byInvitation('hash-of-invited')).toMatchObject({ id: 'invited' });
      await refused(() => as(alice).users.byInvitation('hash-of-invited'));
    });

    method('users.list', async () => {
      expect((await as(admin).users.list(0, 100)).length).toBeGreaterThanOrEqual(4);
      await refused(() => as(alice).users.list(0, 100));
    });

    method('users.count', async () => {
      expect(await as(admin).users.count()).toBeGreaterThanOrEqual(4);
      await refused(() => as(bob).users.count());
    });

    method('users.invite', async () => {
      expect(await as(admin).users.invite(user('new-member', 'member', 'invited'))).toBe(true);
      await expect(as(admin).users.invite(user('new-owner', 'owner', 'invited'))).rejects.toThrow(/Only an owner can invite an owner/);
      await refused(() => as(alice).users.invite(user('by-a-member', 'member', 'invited')));
      expect(await as(owner).users.invite(user('new-owner', 'owner', 'invited'))).toBe(true);
    });

    method('users.renewInvitation', async () => {
      const renewal = (hash: string) => () => ({ invitation_hash: hash, invitation_expires_at: null });
      await expect(as(admin).users.renewInvitation('new-owner', renewal('by-admin'))).rejects.toThrow(/Only an owner can invite an owner/);
      await as(admin).users.renewInvitation('new-member', renewal('renewed'));
      expect(await as(admin).users.get('new-member')).toMatchObject({ invitation_hash: 'renewed' });
      await refused(() => as(alice).users.renewInvitation('new-member', renewal('x')), NotFound);
    });

    method('users.account', async () => {
      await as(alice).users.account('alice', { sessions_since: new Date().toISOString() });
      await refused(() => as(alice).users.account('bob', { password_hash: 'mine now' }), NotFound);
      await expect(as(admin).users.account('bob', { password_hash: 'mine now' })).rejects.toThrow(/Only the user themselves/);
      await as(asSystem('sign in')).users.account('bob', { last_sign_in_at: new Date().toISOString() });
    });

    method('users.activate', async () => {
      await refused(() => as(alice).users.activate('new-member', { name: 'x', password_hash: 'x' }), NotFound);
      await as(asSystem('accept an invitation')).users.activate('new-member', { name: 'New', password_hash: 'hash' });
      expect(await as(admin).users.get('new-member')).toMatchObject({ status: 'active', invitation_hash: null });
    });

    method('users.manage', async () => {
      await expect(as(admin).users.manage('owner2', () => ({ role: 'member' }))).rejects.toThrow(/Only an owner can change an owner/);
      await expect(as(admin).users.manage('bob', () => ({ role: 'owner' }))).rejects.toThrow(/Only an owner can change an owner/);
      await expect(as(admin).users.manage('admin', () => ({ role: 'member' }))).rejects.toThrow(/yourself/);
      await expect(as(owner2).users.manage(OWNER_ID, () => ({ role: 'member' }))).rejects.toThrow(/session key/);
      expect(await as(owner2).users.manage('bob', () => ({ role: 'admin' }))).toMatchObject({ role: 'admin' });
      await as(owner2).users.manage('bob', () => ({ role: 'member' }));
      await refused(() => as(alice).users.manage('bob', () => ({ status: 'disabled' })));
      expect(await as(admin).users.manage('bob', () => ({ max_sandboxes: 3 }))).toMatchObject({ max_sandboxes: 3 });
    });

    method('users.remove', async () => {
      await expect(as(admin).users.remove('owner2', () => undefined)).rejects.toThrow(/Only an owner can delete an owner/);
      await refused(() => as(bob).users.remove('new-member', () => undefined));
      expect(await as(admin).users.remove('new-member', () => undefined)).toMatchObject({ id: 'new-member' });
    });
  });

  describe('API keys', () => {
    let aliceKey: number;
    const key = (user: string, hash: string) => ({
      user_id: user,
      name: null,
      prefix: 'sk-oh-xxxx',
      key_hash: hash,
      created_at: new Date().toISOString(),
      expires_at: null,
    });

    method('apiKeys.insert', async () => {
      aliceKey = (await as(alice).apiKeys.insert(key('alice', 'hash-a'))).id;
      await refused(() => as(admin).apiKeys.insert(key('alice', 'hash-b')), NotFound);
    });

    method('apiKeys.byHash', async () => {
      expect(await as(asSystem('identify a request')).apiKeys.byHash('hash-a')).toMatchObject({ user_id: 'alice' });
      await refused(() => as(alice).apiKeys.byHash('hash-a'));
    });

    method('apiKeys.byId', async () => {
      expect(await as(asSystem('identify a request')).apiKeys.byId(aliceKey)).toMatchObject({ user_id: 'alice' });
      await refused(() => as(owner).apiKeys.byId(aliceKey));
    });

    method('apiKeys.list', async () => {
      expect(await as(alice).apiKeys.list('alice')).toHaveLength(1);
      await refused(() => as(admin).apiKeys.list('alice'), NotFound);
    });

    method('apiKeys.touch', async () => {
      await as(asSystem('identify a request')).apiKeys.touch(aliceKey, new Date().toISOString());
      await refused(() => as(alice).apiKeys.touch(aliceKey, new Date().toISOString()));
    });

    method('apiKeys.touchFirst', async () => {
      await refused(() => as(alice).apiKeys.touchFirst(aliceKey, new Date().toISOString()));
      expect(await as(asSystem('identify a request')).apiKeys.touchFirst(aliceKey, new Date().toISOString())).toBe(false);
    });

    method('apiKeys.delete', async () => {
      await refused(() => as(bob).apiKeys.delete('alice', aliceKey), NotFound);
      expect(await as(alice).apiKeys.delete('alice', aliceKey)).toBe(true);
    });

    method('apiKeys.deleteAll', async () => {
      await as(alice).apiKeys.insert(key('alice', 'hash-c'));
      await refused(() => as(admin).apiKeys.deleteAll('alice'), NotFound);
      await as(asSystem('end a user’s access', 'alice')).apiKeys.deleteAll('alice');
      expect(await as(alice).apiKeys.list('alice')).toEqual([]);
    });
  });

  describe('LLM calls', () => {
    const call = (user: string) => ({
      user_id: user,
      conversation_id: `c-${user}`,
      model: 'gpt-4o',
      status: 200,
      prompt_tokens: 10,
      completion_tokens: 2,
      cache_read_tokens: 0,
      cost: 0.00005,
      created_at: new Date().toISOString(),
    });

    method('llmCalls.insert', async () => {
      await as(asSystem('forward a conversation’s LLM calls', 'alice')).llmCalls.insert(call('alice'));
      await refused(() => as(asSystem('forward a conversation’s LLM calls', 'alice')).llmCalls.insert(call('bob')), NotFound);
      // No user records calls, not even their own: only the proxy, from what the LLM answered.
      await refused(() => as(alice).llmCalls.insert(call('alice')));
      await refused(() => as(owner).llmCalls.insert(call('alice')));
      expect(await db.selectFrom('llm_calls').select(['user_id', 'conversation_id']).execute()).toEqual([
        { user_id: 'alice', conversation_id: 'c-alice' },
      ]);
    });
  });

  describe('usage', () => {
    const FROM = '2000-01-01T00:00:00.000Z';
    const TO = '2100-01-01T00:00:00.000Z';
    const meter = () => as(asSystem('meter sandbox running time'));
    const usersOf = (rows: { user_id: string }[]) => [...new Set(rows.map((row) => row.user_id))].sort();

    method('usage.recordStart', async () => {
      const start = (user: string) => ({ user_id: user, conversation_id: `c-${user}`, created_at: new Date().toISOString() });
      await as(asSystem('record a conversation start', 'alice')).usage.recordStart(start('alice'));
      await as(asSystem('record a conversation start', 'bob')).usage.recordStart(start('bob'));
      await refused(() => as(asSystem('record a conversation start', 'alice')).usage.recordStart(start('bob')), NotFound);
      await refused(() => as(alice).usage.recordStart(start('alice')));
      await refused(() => as(owner).usage.recordStart(start('alice')));
    });

    method('usage.running', async () => {
      const run = (user: string) => ({ sandbox_id: `s-${user}`, user_id: user, runtime: 'process' });
      await meter().usage.running(run('alice'), '2026-01-01T00:00:00.000Z');
      await meter().usage.running(run('bob'), '2026-01-01T00:00:00.000Z');
      await refused(() => as(alice).usage.running(run('alice'), '2026-01-01T00:00:00.000Z'));
      await refused(() => as(admin).usage.running(run('alice'), '2026-01-01T00:00:00.000Z'));
    });

    method('usage.stopped', async () => {
      await meter().usage.stopped('s-none', '2026-01-01T00:00:00.000Z');
      await refused(() => as(alice).usage.stopped('s-alice', '2026-01-01T00:00:00.000Z'));
      await refused(() => as(owner).usage.stopped('s-alice', '2026-01-01T00:00:00.000Z'));
    });

    method('usage.lastSeenStopped', async () => {
      await meter().usage.lastSeenStopped('s-none');
      await refused(() => as(alice).usage.lastSeenStopped('s-alice'));
    });

    method('usage.whose', async () => {
      expect(as(admin).usage.whose()).toBe(null);
      expect(as(admin).usage.whose('bob')).toBe('bob');
      expect(as(alice).usage.whose()).toBe('alice');
      expect(() => as(alice).usage.whose('bob')).toThrow(NotFound);
      expect(() => as(asSystem('watch sandboxes')).usage.whose()).toThrow(Forbidden);
    });

    method('usage.sandboxRuns', async () => {
      expect(usersOf(await as(alice).usage.sandboxRuns(undefined, FROM, TO))).toEqual(['alice']);
      expect(usersOf(await as(admin).usage.sandboxRuns(undefined, FROM, TO))).toEqual(['alice', 'bob']);
      expect(usersOf(await as(owner).usage.sandboxRuns('bob', FROM, TO))).toEqual(['bob']);
      await refused(() => as(alice).usage.sandboxRuns('bob', FROM, TO), NotFound);
    });

    method('usage.startsByDay', async () => {
      expect(usersOf(await as(bob).usage.startsByDay(undefined, FROM, TO))).toEqual(['bob']);
      expect(usersOf(await as(admin).usage.startsByDay(undefined, FROM, TO))).toEqual(['alice', 'bob']);
      await refused(() => as(bob).usage.startsByDay('alice', FROM, TO), NotFound);
    });

    method('usage.llmByDay', async () => {
      // The LLM calls recorded above: alice's only.
      expect(usersOf(await as(alice).usage.llmByDay(undefined, FROM, TO))).toEqual(['alice']);
      expect(await as(bob).usage.llmByDay(undefined, FROM, TO)).toEqual([]);
      expect(usersOf(await as(admin).usage.llmByDay(undefined, FROM, TO))).toEqual(['alice']);
      await refused(() => as(bob).usage.llmByDay('alice', FROM, TO), NotFound);
    });

    method('usage.costSince', async () => {
      expect([...(await as(alice).usage.costSince(undefined, FROM)).keys()]).toEqual(['alice']);
      expect([...(await as(bob).usage.costSince(undefined, FROM)).keys()]).toEqual([]);
      const budget = as(asSystem('check a start against the budget', 'bob')).usage;
      expect([...(await budget.costSince('bob', FROM)).keys()]).toEqual([]);
      await refused(() => budget.costSince('alice', FROM), NotFound);
      await refused(() =>
        budget.costSince(undefined, FROM).then(() => budget.running({ sandbox_id: 's', user_id: 'bob', runtime: 'process' }, FROM)),
      );
    });
  });

  describe('accounting', () => {
    it('has a test for every method of the layer', () => {
      const layer = Object.entries(LAYER).flatMap(([name, { prototype }]) => methodsOf(prototype).map((m) => `${name}.${m}`));
      expect(layer.filter((name) => !checked.has(name))).toEqual([]);
    });

    it('reaches every method of every store of users’ data through the layer', () => {
      const all = (Object.values(stores) as object[]).flatMap((store) => {
        const prototype = Object.getPrototypeOf(store) as object;
        return methodsOf(prototype).map((m) => `${prototype.constructor.name}.${m}`);
      });
      expect(all.filter((name) => !reached.has(name))).toEqual([]);
    });
  });
});
