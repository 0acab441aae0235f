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
import { type Refusal, refusalOf } from './decide';
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
  constructor(
    private readonly stores: UserDataStores,
    /** Told of each refusal of the policy (with the error it is), e.g. to record it in the audit log. */
    private readonly onRefused?: RefusalListener,
  ) {}

  as(subject: Subject): SubjectData {
    const bound = new BoundData(this.stores, subject);
    return this.onRefused ? reportingRefusals(bound, subject, this.onRefused) : bound;
  }
}

/** Told of a refusal: who was refused, what, of which row (the call's last text argument, its id, when it has one), and why. */
export type RefusalListener = (subject: Subject, refusal: Refusal & { id: string | null }, error: Error) => Promise<void>;

/** `bound`'s records, each method's refusals reported to `listener` before they are thrown on. */
function reportingRefusals(bound: SubjectData, subject: Subject, listener: RefusalListener): SubjectData {
  /** Reported before the refusal goes on, when the call is async (it is heard of once its answer is given). */
  const report = (error: unknown, args: unknown[]): Promise<never> | never => {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    const id = args.findLast((arg): arg is string => typeof arg === 'string') ?? null;
    const reported = listener(subject, { ...refusal, id }, error as Error);
    return reported.then(() => Promise.reject(error as Error));
  };
  const wrap = <T extends object>(records: T): T =>
    new Proxy(records, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          try {
            const result: unknown = value.apply(target, args);
            return result instanceof Promise ? result.catch((error: unknown) => report(error, args)) : result;
          } catch (error) {
            // A synchronous refusal stays synchronous; its report is written meanwhile.
            void report(error, args).catch(() => undefined);
            throw error;
          }
        };
      },
    });
  const cache = new Map<keyof SubjectData, object>();
  return new Proxy(bound, {
    get(target, key) {
      const records: unknown = Reflect.get(target, key, target);
      if (typeof records !== 'object' || records === null) return records;
      const name = key as keyof SubjectData;
      if (!cache.has(name)) cache.set(name, wrap(records));
      return cache.get(name);
    },
  });
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
