import { asSystem, OWNER_ID } from './authz/caller';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from './http/app';
import type { Clock } from './clock';
import { ConfigError, type ServerConfig } from './config';
import { ensureDataDir, loadOrCreateKeyFile } from './data-dir';
import { canSwitchUsers, unreadableByOthers } from './processes/process-user';
import { loadLlmPrices } from './llm-prices';
import { createLogger, type Logger } from './logger';
import { SecretBox } from './secret-box';
import { type ApiServices, createServices } from './services/create-services';
import { Passwords } from './services/team/passwords';
import { AGENT_SERVER_SCRIPT, loadSandboxSpecs } from './sandboxes/specs';
import { findNamespaceTools, type NamespaceTools } from './sandboxes/namespaces';
import { claimUidBlock } from './sandboxes/uid-blocks';
import { openDatabase } from './startup';
import { isCookieFreeHost } from './sandboxes/published-host';
import { originOf, shownAddress, signInLinkFor } from './sign-in-link';
import { isolationLine } from './start-messages';

/** The engine, checked, and the default image, built when missing; the server does not start without them. */
async function dockerSandboxes(config: ServerConfig, log: Logger) {
  // Loaded for this runtime only: the engine's client is a good part of a start's time.
  const [{ checkEngine, dockerFromEnv }, { ensureDefaultImage }] = await Promise.all([
    import('./sandboxes/docker/engine'),
    import('./sandboxes/docker/sandbox-image'),
  ]);
  const engine = dockerFromEnv(config.dockerHost);
  await checkEngine(engine);
  const image = await ensureDefaultImage(engine, log);
  log.info({ image }, 'sandboxes run as Docker containers');
  return { engine, image, limits: { memoryBytes: config.sandboxMemory, cpus: config.sandboxCpus, pids: config.sandboxPids } };
}

/**
 * The tools process sandboxes get namespaces of their own with, as SANDBOX_NAMESPACES asks: when
 * they work (`auto`), always (`on`: the server does not start without), or never (`off`).
 */
function processSandboxNamespaces(config: ServerConfig, users: boolean, log: Logger): NamespaceTools | undefined {
  if (config.sandboxNamespaces === 'off') return undefined;
  // Tried as a sandbox would run: as root, as the first sandbox uid.
  const found = findNamespaceTools(users ? { uid: config.sandboxUidBase, gid: config.sandboxUidBase } : undefined);
  if (found.tools) {
    log.info('process sandboxes run in namespaces of their own');
    if (found.unlimitedNetwork)
      log.warn(
        { reason: found.unlimitedNetwork },
        "process sandboxes' networks are not limited: they reach private addresses (the Docker bridge, the LAN, cloud metadata). Install iptables (Debian: apt-get install iptables).",
      );
    return found.tools;
  }
  if (config.sandboxNamespaces === 'on')
    throw new ConfigError(`SANDBOX_NAMESPACES=on, but sandboxes cannot have namespaces: ${found.reason}`);
  log.warn(
    { reason: found.reason },
    'process sandboxes run without namespaces of their own: they share the host network (and may take its ports), /tmp and processes. Install bubblewrap and slirp4netns (Debian: apt-get install bubblewrap slirp4netns).',
  );
  return undefined;
}

/**
 * What keeps sandboxes as other users from running Node and the agent server (under /root, an
 * nvm or a checkout there): a sentence each, saying what to change.
 */
export function sandboxUserProblems(agentServerScript = AGENT_SERVER_SCRIPT): string[] {
  // Where they are, not where a link to them is (`/usr/local/bin/node` may point into `/root/.nvm`).
  const real = (file: string) => (fs.existsSync(file) ? fs.realpathSync(file) : file);
  return [unreadableByOthers(real(process.execPath), 'Node'), unreadableByOthers(real(agentServerScript), 'the agent server')].filter(
    (problem): problem is string => problem !== undefined,
  );
}

function warnAboutProcessSandboxes({ users, namespaces }: { users: boolean; namespaces: boolean }, log: Logger): void {
  if (!users && !namespaces) {
    log.warn(
      "Process sandboxes are not isolated: they run as this server's user and can read DATA_DIR (keys, database) and this process's environment. Install bubblewrap and slirp4netns to give each sandbox namespaces of its own, run the server as root to give each a uid of its own (SANDBOX_UID_BASE), or use the Docker runtime for untrusted agents.",
    );
  }
}

/** A server whose services run (sandboxes watched again) but which collects no events and serves nothing yet. */
export interface OpenedServer {
  config: ServerConfig;
  log: Logger;
  sessionKey: string;
  services: ApiServices;
  /**
   * Collects events, ends what an earlier run left, listens; returns the app, the console's
   * sign-in link, and the sign-in page for the session cookie (on `localhost`, not on 127.0.0.1).
   */
  serve: () => Promise<{ app: FastifyInstance; signInLink: string; cookieSignInPage: string | undefined }>;
  /** For the person who started it: what keeps sandboxes apart, and what keeps them from starting. */
  sandboxNotes: string[];
}

/**
 * Everything `npm start` does up to listening: the data dir, the keys, the database, the
 * services, the sandboxes of an earlier run found again. `clock` stamps what the services record;
 * the log goes to `logDestination` (stdout by default).
 */
export async function openServer(
  config: ServerConfig,
  { clock, logDestination }: { clock?: Clock; logDestination?: DestinationStream } = {},
): Promise<OpenedServer> {
  const llmPrices = loadLlmPrices(config.llmPricesFile);
  const sandboxSpecs = loadSandboxSpecs(config.sandboxSpecsFile, { runtime: config.sandboxRuntime });
  // As root, each sandbox runs as a user of its own; they pass through DATA_DIR to their homes.
  const isolated = canSwitchUsers();
  ensureDataDir(config.dataDir, { traversable: isolated });
  const sessionKey = config.sessionApiKey ?? loadOrCreateKeyFile(config.dataDir, 'session-api-key');
  const secrets = new SecretBox(config.secretsKey ?? loadOrCreateKeyFile(config.dataDir, 'secrets.key'));

  const log = createLogger(config.logLevel, logDestination);
  const docker = config.sandboxRuntime === 'docker' ? await dockerSandboxes(config, log) : undefined;
  const namespaces = docker ? undefined : processSandboxNamespaces(config, isolated, log);
  if (!docker) warnAboutProcessSandboxes({ users: isolated, namespaces: namespaces !== undefined }, log);
  // Each server on this machine (each DATA_DIR) its own uids: from SANDBOX_UID_BASE, past those others claim.
  const uidBase = isolated ? claimUidBlock(config.sandboxUidBase, config.dataDir) : undefined;
  if (uidBase !== undefined && uidBase !== config.sandboxUidBase) {
    log.warn(
      { configured: config.sandboxUidBase, used: uidBase },
      'another server on this machine has the uids from SANDBOX_UID_BASE: sandboxes take the next free ones',
    );
  }
  const db = await openDatabase(config.dataDir, secrets, config.databaseUrl, log);
  const services = createServices(db, secrets, {
    log,
    corsOrigins: config.corsOrigins,
    dataDir: config.dataDir,
    sandboxSpecs,
    sandboxLimits: {
      maxSandboxes: config.maxSandboxes,
      maxRunning: config.maxRunningSandboxes,
      startTimeoutMs: config.sandboxStartTimeout * 1000,
      stopGraceMs: config.sandboxStopGrace * 1000,
    },
    verifyGitTokens: config.verifyGitTokens,
    setupScriptTimeoutMs: config.setupScriptTimeout * 1000,
    llmPrices,
    tavilyApiUrl: config.tavilyApiUrl,
    sandboxUidBase: uidBase,
    sandboxNamespaces: namespaces,
    docker,
    clock,
    // One id per data dir: restarted, the instance owns its sandboxes again.
    instance: { id: loadOrCreateKeyFile(config.dataDir, 'instance-id'), sessionKey },
    databaseUrl: config.databaseUrl,
    oidc: config.oidc,
    passwords: new Passwords(config.passwordHashCost),
    sandboxesShareNetwork: !docker && namespaces === undefined,
    auditRetentionDays: config.auditRetentionDays,
  });
  // MCP env values stored before they were sealed at rest (by the one user there was then) are sealed now.
  await services.settings.sealPlainMcpEnv(asSystem('seal MCP env values stored in plain text', OWNER_ID));
  /*
   * Restart recovery and clean-up, split by who can do them. This instance's own, here: its
   * sandboxes found again (only its runtime sees their processes or containers), its starts left
   * mid-way (only it knows it restarted), and its host's leftovers (its DATA_DIR's trash, containers
   * labelled with its DATA_DIR, MCP test processes marked with it); another instance could not
   * reach them. Global (what instances that stopped or went quiet left): only the holder of the
   * global-work lock, at once when it takes it and at each heartbeat (InstanceRegistry.addGlobalWork).
   * All of it only once the instance holds the lock on its own id (startMonitoring takes it before
   * it touches a sandbox): never for a live twin on the same data dir.
   */
  services.instances.whenIdTaken((message) => {
    // Two processes looking after the same sandboxes would end each other's work: this one goes.
    log.fatal(message);
    process.exit(1);
  });
  // Sandboxes of an earlier run are still in the registry: find them and watch their health again.
  await services.sandboxes.startMonitoring();

  const serve = async () => {
    // Events the agents wrote while this server was down are caught up, then followed live.
    await services.events.listenForNotices();
    try {
      await services.collector.start();
      services.audit.startRetention();
      services.browserSessions.startSweeping();
      // Conversation starts an earlier run left mid-way do not go on: they say so.
      const interrupted = await services.startTasks.markInterrupted();
      const leftSandboxes = await services.conversations.removeLeftoverSandboxes();
      // MCP servers an earlier run was testing when it was killed are not: they go.
      const leftovers = await services.mcpTest.endLeftovers();

      const app = await buildApp({
        sessionKey,
        services,
        consoleDir: config.consoleDir,
        consoleContentSecurityPolicy: config.consoleContentSecurityPolicy,
        cookieSecure: config.cookieSecure,
        corsOrigins: config.corsOrigins,
        metricsToken: config.metricsToken,
        // Sandboxes are handed loopback addresses, which are allowed already.
        allowedHosts: [config.host, ...config.allowedHosts],
        log,
        afterClose: () => db.destroy(),
      });
      if (interrupted > 0) app.log.warn({ tasks: interrupted }, 'conversation starts were interrupted by the restart');
      if (leftSandboxes > 0)
        app.log.warn({ sandboxes: leftSandboxes }, 'deleted sandboxes a conversation start or delete left when the server stopped');
      if (leftovers > 0) app.log.warn({ leftovers }, 'ended MCP tests an earlier run left behind (process groups or containers)');

      await app.listen({ host: config.host, port: config.port });
      const shown = shownAddress(app, config.host, config.port);
      await services.instances.announce(config.instanceUrl ?? originOf(shown.host, shown.port));
      // The cookie is never set where sandboxes may listen or are published: their ports would get it too.
      const cookieHost = isCookieFreeHost(shown.host) ? 'localhost' : shown.host;
      return {
        app,
        signInLink: signInLinkFor(app, config.host, config.port, sessionKey),
        cookieSignInPage: services.browserSessions.refusedBecause ? undefined : `${originOf(cookieHost, shown.port)}/sign-in`,
      };
    } catch (error) {
      // Not served: nothing else stops receiving notices of new events (the app's close does when it is).
      await services.events.stopNotices();
      throw error;
    }
  };
  const sandboxNotes = [isolationLine(services.sandboxes.isolation), ...(isolated && !docker ? sandboxUserProblems() : [])];
  return { config, log, sessionKey, services, serve, sandboxNotes };
}

/** Runs `shutdown` once, on the first SIGTERM or SIGINT (Ctrl+C), then exits: 0 when it went well. */
export function onStopSignal(log: Logger, shutdown: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'the shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
