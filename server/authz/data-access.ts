import { ApiKeysStore } from '../store/api-keys-store';
import { ConversationsStore } from '../store/conversations-store';
import type { Db } from '../store/database';
import { EventsStore } from '../store/events-store';
import { LlmCallsStore } from '../store/llm-calls-store';
import { SandboxesStore } from '../store/sandboxes-store';
import { SecretsStore } from '../store/secrets-store';
import { SettingsStore } from '../store/settings-store';
import { StartTasksStore } from '../store/start-tasks-store';
import { UsageStore } from '../store/usage-store';
import { UsersStore } from '../store/users-store';
import { ApiKeyRecords } from './api-keys';
import type { Subject } from './caller';
import { ConversationRecords } from './conversations';
import { EventRecords } from './events';
import { LlmCallRecords } from './llm-calls';
import { SandboxRecords } from './sandboxes';
import { SecretRecords } from './secrets';
import { SettingsDocuments } from './settings';
import { StartTaskRecords } from './start-tasks';
import { UsageRecords } from './usage';
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
  llmCalls: LlmCallsStore;
  usage: UsageStore;
}

/** The stores of users' data on `db`. */
export const userDataStores = (db: Db): UserDataStores => ({
  conversations: new ConversationsStore(db),
  sandboxes: new SandboxesStore(db),
  startTasks: new StartTasksStore(db),
  events: new EventsStore(db),
  settings: new SettingsStore(db),
  secrets: new SecretsStore(db),
  users: new UsersStore(db),
  apiKeys: new ApiKeysStore(db),
  llmCalls: new LlmCallsStore(db),
  usage: new UsageStore(db),
});

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
  llmCalls: LlmCallRecords;
  usage: UsageRecords;
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
    return new BoundData(this.stores, subject);
  }
}

/** The stores bound to one subject, each made when first used (most calls use one or two). */
class BoundData implements SubjectData {
  #conversations?: ConversationRecords;
  #sandboxes?: SandboxRecords;
  #startTasks?: StartTaskRecords;
  #events?: EventRecords;
  #settings?: SettingsDocuments;
  #secrets?: SecretRecords;
  #users?: UserRecords;
  #apiKeys?: ApiKeyRecords;
  #llmCalls?: LlmCallRecords;
  #usage?: UsageRecords;

  constructor(
    private readonly stores: UserDataStores,
    private readonly subject: Subject,
  ) {}

  get conversations() {
    return (this.#conversations ??= new ConversationRecords(this.stores.conversations, this.subject));
  }

  get sandboxes() {
    return (this.#sandboxes ??= new SandboxRecords(this.stores.sandboxes, this.subject));
  }

  get startTasks() {
    return (this.#startTasks ??= new StartTaskRecords(this.stores.startTasks, this.subject));
  }

  get events() {
    return (this.#events ??= new EventRecords(this.stores.events, this.subject));
  }

  get settings() {
    return (this.#settings ??= new SettingsDocuments(this.stores.settings, this.subject));
  }

  get secrets() {
    return (this.#secrets ??= new SecretRecords(this.stores.secrets, this.subject));
  }

  get users() {
    return (this.#users ??= new UserRecords(this.stores.users, this.subject));
  }

  get apiKeys() {
    return (this.#apiKeys ??= new ApiKeyRecords(this.stores.apiKeys, this.subject));
  }

  get llmCalls() {
    return (this.#llmCalls ??= new LlmCallRecords(this.stores.llmCalls, this.subject));
  }

  get usage() {
    return (this.#usage ??= new UsageRecords(this.stores.usage, this.subject));
  }
}
