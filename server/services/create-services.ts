import { asSystem, OWNER_ID } from '../authz/caller';
import { DataAccess, userDataStores } from '../authz/data-access';
import type { SandboxSpec } from '../../src/contract/sandboxes';
import { type Clock, systemClock } from '../clock';
import { verifyTokenOverHttp } from '../git-providers/token-verifier';
import { LlmPrices } from '../llm-prices';
import type { Logger } from '../logger';
import type Docker from 'dockerode';
import { type ContainerLimits, DockerRuntime } from '../sandboxes/docker-runtime';
import { ContainerSpecCatalog } from '../sandboxes/docker/container-specs';
import { ImagesOnBase } from '../sandboxes/docker/image-on-base';
import { LimitedSandboxNetwork } from '../sandboxes/docker/network-limits';
import { LabelledImageSpecs } from '../sandboxes/docker/labelled-images';
import { reachableFromSandbox } from '../sandboxes/host-alias';
import type { NamespaceTools } from '../sandboxes/namespaces';
import { ProcessRuntime } from '../sandboxes/process-runtime';
import type { SandboxRuntime } from '../sandboxes/runtime';
import { fixedSpecCatalog } from '../sandboxes/spec-catalog';
import { SandboxUsers } from '../sandboxes/sandbox-users';
import type { SecretBox } from '../secret-box';
import { connectionPoolStats, type Db } from '../store/database';
import { ServerMetrics } from '../metrics/server-metrics';
import { EventNotices } from '../store/event-notices';
import { MetaStore } from '../store/meta-store';
import { InstancesStore } from '../store/instances-store';
import { InstanceLocks } from '../store/instance-locks';
import { AgentStartRequests } from './conversations/agent-start-request';
import { ConversationWorkspaces } from './conversations/conversation-workspaces';
import { AgentConversations } from './conversations/agent-conversations';
import { BrowserSessions } from './sessions/browser-sessions';
import { SHARED_NETWORK_REFUSAL } from './sessions/shared-network-refusal';
import { ConversationService } from './conversations/conversation-service';
import { EventCollector } from './events/event-collector';
import { EventService } from './events/event-service';
import { GitUserService } from './git/git-user-service';
import { SolvabilityService } from './git/solvability-service';
import { DEFAULT_INSTANCE_TIMING, InstanceRegistry, type InstanceTiming } from './instances/instance-registry';
import { OwnerClient } from './instances/owner-client';
import { LlmTestService } from './settings/llm-test-service';
import { LlmProxyService } from './llm-proxy/llm-proxy-service';
import { LlmProxyTokens } from './llm-proxy/llm-proxy-tokens';
import { McpTestService } from './settings/mcp-test-service';
import { SearchKeyTestService } from './settings/search-key-test-service';
import { TavilyApi } from './web-search/tavily-api';
import { WebSearchService } from './web-search/web-search-service';
import type { SandboxLimits, UserSandboxLimits } from './sandboxes/sandbox-limits';
import { SandboxService } from './sandboxes/sandbox-service';
import { OptionsService } from './settings/options-service';
import { SecretsService } from './secrets/secrets-service';
import { SettingsService } from './settings/settings-service';
import { StartTaskService } from './conversations/start-task-service';
import { ApiKeysService } from './team/api-keys-service';
import { Identities } from './team/identities';
import { IdentityProvider } from './team/identity-provider';
import { type OidcConfig, TAVILY_API_URL } from '../config';
import { TeamService } from './team/team-service';
import type { Passwords } from './team/passwords';
import { AuditService } from './audit/audit-service';
import { AuditLogStore } from '../store/audit-log-store';
import { BrowserSessionsStore } from '../store/browser-sessions-store';
import { SandboxMeter, type MeterTiming } from './usage/sandbox-meter';
import { SandboxResourcesService } from './usage/sandbox-resources';
import { UsageService } from './usage/usage-service';

export interface ApiServices {
  settings: SettingsService;
  secrets: SecretsService;
  mcpTest: McpTestService;
  llmTest: LlmTestService;
  /** Whether Tavily accepts a search API key (`/api/search/test`). */
  searchKeyTest: SearchKeyTestService;
  /** What Settings may choose from (`/api/options/*`). */
  options: OptionsService;
  /** The connected git provider's view of its user (`/api/user/*`). */
  gitUser: GitUserService;
  solvability: SolvabilityService;
  sandboxes: SandboxService;
  startTasks: StartTaskService;
  conversations: ConversationService;
  events: EventService;
  /** A conversation's agent server: its actions, forwarded. */
  agents: AgentConversations;
  /** A conversation's workspace, read through its agent server. */
  workspaces: ConversationWorkspaces;
  /** Collects every conversation's events from its agent server; `start()` it once the sandboxes are watched. */
  collector: EventCollector;
  /** Browsers signed in with the session cookie. */
  browserSessions: BrowserSessions;
  /** This instance in the registry; `announce` gives it the address it listens on. */
  instances: InstanceRegistry;
  /** The users, their roles and invitations, and password sign-in. */
  team: TeamService;
  apiKeys: ApiKeysService;
  /** The LLM as sandboxes reach it: their calls, passed on with the owner's key. */
  llmProxy: LlmProxyService;
  /** The agent's web search, on the LLM proxy's listener: its searches, passed on to Tavily with the owner's key. */
  webSearch: WebSearchService;
  /** Who an API key or a session cookie is. */
  identities: Identities;
  /** Sign-in with an identity provider, when OIDC_* set one up. */
  identityProvider?: IdentityProvider;
  /** What `GET /metrics` shows. */
  metrics: ServerMetrics;
  /** The audit log: what the services record, read by owners and admins, its chain and retention. */
  audit: AuditService;
  /** Usage and cost (`/api/usage`), and the monthly budgets a conversation start is held to. */
  usage: UsageService;
  /** What running sandboxes use (`/api/v1/sandboxes/…/resources`). */
  sandboxResources: SandboxResourcesService;
}

export interface ServiceOptions {
  /** Browser origins besides loopback ones that may call the API, and so sandboxes' agent servers. */
  corsOrigins?: string[];
  /** Sandbox directories live under here; it also names the processes MCP tests start. */
  dataDir: string;
  sandboxSpecs: SandboxSpec[];
  sandboxLimits: SandboxLimits;
  /** Checks new git provider tokens with the provider when they are saved (VERIFY_GIT_TOKENS). */
  verifyGitTokens?: boolean;
  /** How long a repository's setup script may run when a conversation starts. */
  setupScriptTimeoutMs: number;
  /** What models cost (`loadLlmPrices`); absent: the shipped prices. */
  llmPrices?: LlmPrices;
  /** Tavily's API (TAVILY_API_URL), for web search and the search key's test; Tavily's own when absent. */
  tavilyApiUrl?: string;
  /** Each service logs through a child of this one. */
  log: Logger;
  /** First uid of the users sandboxes run as (the server must be root); absent: they run as the server's user. */
  sandboxUidBase?: number;
  /** Process sandboxes run in namespaces of their own with these tools (`findNamespaceTools`); absent: on the host's. */
  sandboxNamespaces?: NamespaceTools;
  /** Sandboxes run as containers on this engine, from `image` unless their spec or Settings name another; absent: as process groups. */
  /** The Docker runtime: its engine, default image, limits, and the network (made at start when not given). */
  docker?: { engine: Docker; image: string; limits: ContainerLimits; network?: LimitedSandboxNetwork };
  /** Stamps what services record (sandboxes, starts, conversations); the system's clock when absent. */
  clock?: Clock;
  /**
   * This server among several on one database: its id (stable per data dir), the session key the
   * others take when it asks them about their sandboxes, and how often it sends its heartbeat.
   */
  instance: { id: string; sessionKey: string; timing?: InstanceTiming };
  /** The PostgreSQL database `db` is on, to be notified of the events other instances store; absent on SQLite. */
  databaseUrl?: string;
  /** OIDC_*: the identity provider people may sign in with. */
  oidc?: OidcConfig;
  /** How passwords are hashed and checked; Argon2id at its default cost when absent. */
  passwords?: Passwords;
  /**
   * Sandboxes share the server's network (process sandboxes without namespaces): no browser
   * session and no team, which need sandboxes that cannot be sent a browser's cookies.
   */
  sandboxesShareNetwork?: boolean;
  /** How often event collection looks for conversations to connect to (see EventCollector). */
  eventCollectionRoundMs?: number;
  /** Days audit log entries are kept (AUDIT_RETENTION_DAYS); 0 or absent: for ever. */
  auditRetentionDays?: number;
  /** How often the sandbox meter looks (tests look more often). */
  meterTiming?: MeterTiming;
}

/** Wires each service to the data-access layer over the stores; the one place where the object graph is built. */
export function createServices(db: Db, box: SecretBox, options: ServiceOptions): ApiServices {
  const { log, clock } = options;
  const audit = new AuditService(
    new AuditLogStore(db, clock ?? systemClock),
    log.child({ component: 'audit' }),
    options.auditRetentionDays ?? 0,
    clock ?? systemClock,
  );
  // Every refusal of the policy is in the audit log: who tried what of whose.
  const data = new DataAccess(userDataStores(db), (subject, refusal, error) => audit.recordRefusal(subject, refusal, error));
  const secrets = new SecretsService(data, box, verifyTokenOverHttp, options.verifyGitTokens ?? false, audit);
  const settings = new SettingsService(data, box, secrets, log.child({ component: 'settings' }), audit);
  // The owner's Settings (or the team's defaults) choose the images and sizes of Docker sandboxes.
  const imageChoice = asSystem('choose the sandbox image', OWNER_ID);
  const sandboxLog = log.child({ component: 'sandboxes' });
  const users = options.sandboxUidBase === undefined ? undefined : new SandboxUsers(options.sandboxUidBase);
  const { dataDir } = options;
  const { stopGraceMs } = options.sandboxLimits;
  const { docker } = options;
  const agentEnv = { OH_ALLOW_CORS_ORIGINS: JSON.stringify(options.corsOrigins ?? []) };
  const sandboxNetwork = docker && (docker.network ?? new LimitedSandboxNetwork(docker.engine, docker.image, sandboxLog));
  const runtime: SandboxRuntime = sandboxNetwork
    ? new DockerRuntime({
        docker: docker.engine,
        dataDir,
        image: docker.image,
        limits: docker.limits,
        network: sandboxNetwork,
        resourceFactor: () => settings.resourceFactor(imageChoice),
        stopGraceMs,
        log: sandboxLog,
        agentEnv,
      })
    : new ProcessRuntime({ dataDir, stopGraceMs, log: sandboxLog, users, namespaces: options.sandboxNamespaces, agentEnv });
  const specs = docker
    ? new ContainerSpecCatalog({
        declared: options.sandboxSpecs,
        defaultImage: docker.image,
        settingsImages: () => settings.sandboxImages(imageChoice),
        labelled: new LabelledImageSpecs(docker.engine, sandboxLog),
        onBase: new ImagesOnBase(docker.engine, docker.image, sandboxLog),
        log: sandboxLog,
      })
    : fixedSpecCatalog(options.sandboxSpecs);
  const instances = {
    registry: new InstanceRegistry(
      new InstancesStore(db),
      options.instance.id,
      options.instance.timing ?? DEFAULT_INSTANCE_TIMING,
      sandboxLog,
      options.databaseUrl ? new InstanceLocks(options.databaseUrl, sandboxLog) : undefined,
    ),
    client: new OwnerClient(options.instance.sessionKey),
  };
  // Several instances share a PostgreSQL database; with SQLite this one is alone and runs every sandbox.
  const sandboxes = new SandboxService(
    data,
    box,
    runtime,
    specs,
    options.sandboxLimits,
    sandboxLog,
    clock,
    options.databaseUrl ? instances : undefined,
    // Called only once everything is built.
    (userId): Promise<UserSandboxLimits> => team.sandboxLimits(userId),
    audit,
  );
  const meter = new SandboxMeter(data, runtime, sandboxLog, clock, options.meterTiming);
  sandboxes.reportStatusTo(meter);
  const usage = new UsageService(data, clock);
  const mcpTest = new McpTestService(settings, log.child({ component: 'mcp-test' }), runtime);
  const llmTest = new LlmTestService(settings, log.child({ component: 'llm-test' }));
  const conversationLog = log.child({ component: 'conversations' });
  const prices = options.llmPrices ?? new LlmPrices();
  // Containers and namespaced processes have a loopback of their own: the host's is reached by its name.
  const urlFromSandbox = docker || options.sandboxNamespaces ? reachableFromSandbox : undefined;
  const proxyTokens = new LlmProxyTokens(box);
  const llmProxy = new LlmProxyService(
    data,
    settings,
    proxyTokens,
    prices,
    clock ?? systemClock,
    log.child({ component: 'llm-proxy' }),
    urlFromSandbox,
    docker?.engine,
  );
  const tavily = new TavilyApi(options.tavilyApiUrl ?? TAVILY_API_URL);
  const webSearch = new WebSearchService(data, settings, proxyTokens, tavily, log.child({ component: 'web-search' }));
  const startRequests = new AgentStartRequests(settings, secrets, prices, llmProxy, webSearch, urlFromSandbox);
  const startTasks = new StartTaskService(
    data,
    sandboxes,
    secrets,
    {
      setupScriptTimeoutMs: options.setupScriptTimeoutMs,
      startRequests,
      clock,
      instanceId: options.instance.id,
      urlFromSandbox,
      usage,
    },
    conversationLog,
    audit,
  );
  instances.registry.addGlobalWork((quietSince) => startTasks.interruptTasksOfGoneInstances(quietSince));
  const eventLog = log.child({ component: 'events' });
  const notices = options.databaseUrl ? new EventNotices(options.databaseUrl, eventLog) : undefined;
  const events = new EventService(data, eventLog, notices);
  const agents = new AgentConversations(
    data,
    sandboxes,
    startRequests,
    conversationLog,
    (conversationId) => events.executionStatus(conversationId),
    audit,
  );
  const workspaces = new ConversationWorkspaces(agents, sandboxes);
  const collector = new EventCollector(sandboxes, data, events, agents, eventLog, options.eventCollectionRoundMs);
  // A conversation just started has its events collected from its first one, not from the next round.
  startTasks.onUpdate((task) => {
    if (task.status === 'READY') collector.lookNow();
  });
  const conversations = new ConversationService(data, startTasks, sandboxes, events, agents, collector, conversationLog, clock, audit);
  const browserSessions = new BrowserSessions(
    new MetaStore(db),
    new BrowserSessionsStore(db),
    audit,
    log.child({ component: 'sessions' }),
    clock,
    options.sandboxesShareNetwork ? SHARED_NETWORK_REFUSAL : undefined,
  );
  const apiKeys = new ApiKeysService(data, clock, audit, browserSessions);
  const metrics = new ServerMetrics({
    instanceId: options.instance.id,
    runtime: docker ? 'docker' : 'process',
    sandboxes,
    collector,
    events,
    llmProxy,
    databasePool: () => connectionPoolStats(db),
  });
  const team: TeamService = new TeamService(
    data,
    {
      runningSandboxes: (userIds) => sandboxes.runningByUser(userIds),
      pauseSandboxesOf: (userId) => sandboxes.pauseAllOf(userId),
      forgetUserData: async (subject) => {
        await settings.forget(subject);
        await secrets.forget(subject);
      },
      endBrowserSessions: (who, which, reason, email) => browserSessions.end(who, which, reason, email),
      invitationsRefusedBecause: options.sandboxesShareNetwork ? SHARED_NETWORK_REFUSAL : undefined,
    },
    log.child({ component: 'team' }),
    clock,
    options.passwords,
    audit,
  );
  return {
    settings,
    secrets,
    mcpTest,
    llmTest,
    searchKeyTest: new SearchKeyTestService(settings, tavily, log.child({ component: 'search-key-test' })),
    options: new OptionsService(prices, docker ? 'docker' : 'process'),
    gitUser: new GitUserService(secrets, log.child({ component: 'git-user' })),
    solvability: new SolvabilityService(settings, secrets, log.child({ component: 'solvability' })),
    sandboxes,
    startTasks,
    conversations,
    events,
    agents,
    workspaces,
    collector,
    browserSessions,
    instances: instances.registry,
    team,
    apiKeys,
    llmProxy,
    webSearch,
    identities: new Identities(data, apiKeys),
    identityProvider: options.oidc && new IdentityProvider(options.oidc, team, log.child({ component: 'identity-provider' })),
    metrics,
    audit,
    usage,
    sandboxResources: new SandboxResourcesService(sandboxes, meter),
  };
}
