import type { ApiKeysStore } from '../store/api-keys-store';
import type { ConversationsStore } from '../store/conversations-store';
import type { EventsStore } from '../store/events-store';
import type { SandboxesStore } from '../store/sandboxes-store';
import type { SecretsStore } from '../store/secrets-store';
import type { SettingsStore } from '../store/settings-store';
import type { StartTasksStore } from '../store/start-tasks-store';
import type { UsersStore } from '../store/users-store';
import { ApiKeyRecords } from './api-keys';
import type { Subject } from './caller';
import { ConversationRecords } from './conversations';
import { EventRecords } from './events';
import { SandboxRecords } from './sandboxes';
import { SecretRecords } from './secrets';
import { SettingsDocuments } from './settings';
import { StartTaskRecords } from './start-tasks';
import { UserRecords } from './users';

/** The stores of users' data: reached only through `DataAccess`. */
export interface UserDataStores {
  conversations: ConversationsStore;
  sandboxes: SandboxesStore;
  startTasks: StartTasksStore;
  events: EventsStore;
  settings: SettingsStore;
  secrets: SecretsStore;
  users: UsersStore;
  apiKeys: ApiKeysStore;
}

/** Users' data as one subject may reach it: each store's methods, each checked against the policy (server/authz/policy.ts). */
export interface SubjectData {
  conversations: ConversationRecords;
  sandboxes: SandboxRecords;
  startTasks: StartTaskRecords;
  events: EventRecords;
  settings: SettingsDocuments;
  secrets: SecretRecords;
  users: UserRecords;
  apiKeys: ApiKeyRecords;
}

/**
 * The one way services reach users' data (as Coder's dbauthz wraps its store): `as(subject)`
 * binds the stores to a caller, or to the server at a named task (`asSystem`), and every read and
 * action through them is scoped and checked by the policy, so no call can forget whose rows it
 * may touch. A lint rule keeps the stores themselves out of services and routes.
 */
export class DataAccess {
  constructor(private readonly stores: UserDataStores) {}

  as(subject: Subject): SubjectData {
    const { stores } = this;
    return {
      conversations: new ConversationRecords(stores.conversations, subject),
      sandboxes: new SandboxRecords(stores.sandboxes, subject),
      startTasks: new StartTaskRecords(stores.startTasks, subject),
      events: new EventRecords(stores.events, subject),
      settings: new SettingsDocuments(stores.settings, subject),
      secrets: new SecretRecords(stores.secrets, subject),
      users: new UserRecords(stores.users, subject),
      apiKeys: new ApiKeyRecords(stores.apiKeys, subject),
    };
  }
}
