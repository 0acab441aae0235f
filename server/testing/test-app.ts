import { sessionKeyCaller } from '../authz/caller';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import type { Clock } from '../clock';
import type { OidcConfig } from '../config';
import type { DestinationStream } from 'pino';
import { buildApp } from '../http/app';
import { ensureDataDir, loadOrCreateKeyFile } from '../data-dir';
import { canSwitchUsers } from '../processes/process-user';
import { createLogger } from '../logger';
import { SecretBox } from '../secret-box';
import type { SandboxSpec } from '../../src/contract/sandboxes';
import { loadSandboxSpecs } from '../sandboxes/specs';
import { createServices } from '../services/create-services';
import type { InstanceTiming } from '../services/instances/instance-registry';
import type { SandboxLimits } from '../services/sandboxes/sandbox-limits';
import type { MeterTiming } from '../services/usage/sandbox-meter';
import { openDatabase } from '../startup';
import type { Db, QueryObserver } from '../store/database';
import { type DatabaseName, freshPostgresDatabase } from './databases';
import { defaultImage, localEngine, removeDockerLeftovers, type RuntimeName } from './docker-engine';
import { LimitedSandboxNetwork } from '../sandboxes/docker/network-limits';
import { ownSandboxUidBase } from './sandbox-uid-base';
import type { NamespaceTools } from '../sandboxes/namespaces';
import { Passwords } from '../services/team/passwords';

export const TEST_SESSION_KEY = 'test-session-key-0123456789';
export const TEST_SECRETS_KEY = 'test-secrets-key';

export interface TestAppOptions {
  consoleDir?: string;
  consoleContentSecurityPolicy?: string;
  cookieSecure?: boolean;
  /** METRICS_TOKEN. */
  metricsToken?: string;
  dataDir?: string;
  secretsKey?: string;
  verifyGitTokens?: boolean;
  sandboxSpecs?: SandboxSpec[];
  sandboxLimits?: Partial<SandboxLimits>;
  setupScriptTimeoutMs?: number;
  /** Where log lines go (at `debug`); none are written without it. */
  logStream?: DestinationStream;
  allowedHosts?: string[];
  corsOrigins?: string[];
  /** The most an event stream holds for a slow client (see server/routes/event-stream.ts). */
  eventStreamBufferBytes?: number;
  /** First uid of the sandboxes' users; `null` runs them as the test's own user. Default: isolated when root, as the server does. */
  sandboxUidBase?: number | null;
  /** Process sandboxes in namespaces of their own, with these tools (see server/sandboxes/namespaces.ts). */
  sandboxNamespaces?: NamespaceTools;
  /** Where its sandboxes run: process groups (the default) or containers on the local engine. */
  sandboxRuntime?: RuntimeName;
  /**
   * On the Docker runtime, the sandboxes' network and its limits. By default one for every app of
   * the test run's worker: the host's rules go in once, not once per app as once per server start.
   */
  sandboxNetwork?: LimitedSandboxNetwork;
  /** SQLite in the data dir (the default), or a fresh PostgreSQL database, dropped on close unless `keepData`. */
  database?: DatabaseName;
  /** This PostgreSQL database (another app's `databaseUrl`: a restart, or a second instance); never dropped by this app. */
  databaseUrl?: string;
  /** Called with each query the app's database runs. */
  observeQueries?: QueryObserver;
  /** Listens on a loopback port and registers it with the instance registry, so other instances can forward to it. */
  listen?: boolean;
  /** How often it writes its heartbeat and when another counts as quiet. */
  instanceTiming?: InstanceTiming;
  /** What the services stamp (invitations, keys, sandboxes); the system's clock when absent. */
  clock?: Clock;
  /** An identity provider people sign in with. */
  oidc?: OidcConfig;
  /** How passwords are hashed; at a test's cost (`CHEAP_ARGON2`) when absent. */
  passwords?: Passwords;
  /**
   * As a server whose process sandboxes have no namespaces: no browser sessions, no invitations.
   * Off by default, so tests of teams run on any machine.
   */
  sandboxesShareNetwork?: boolean;
  /** How often event collection looks for conversations to connect to; half a second, as the server's, when absent. */
  eventCollectionRoundMs?: number;
  /** Tavily's API as TAVILY_API_URL names it (a stand-in's, `startTavilyStandIn`); Tavily's own when absent. */
  tavilyApiUrl?: string;
  /** How often the sandbox meter looks (CPU, memory, disk, running time); the server's when absent. */
  meterTiming?: MeterTiming;
}

/** Argon2id at a cost tests can afford: the same code and queue, a sixty-fourth of the memory and one pass. */
export const CHEAP_ARGON2 = { memoryCost: 1024, timeCost: 1 } as const;

let sharedSandboxNetwork: LimitedSandboxNetwork | undefined;

async function dockerSandboxes(network: LimitedSandboxNetwork | undefined) {
  const engine = await localEngine();
  if (!engine) throw new Error('sandboxRuntime docker: no Docker engine responds');
  const image = await defaultImage(engine);
  sharedSandboxNetwork ??= new LimitedSandboxNetwork(engine, image, createLogger(false));
  // small limits: tests start many at once on a small machine
  return { engine, image, limits: { memoryBytes: 512 * 2 ** 20, cpus: 1, pids: 256 }, network: network ?? sharedSandboxNetwork };
}

/** Every stored row, as text, to look for plain-text secrets. */
async function postgresText(db: Db): Promise<string> {
  const tables = await db.introspection.getTables();
  const texts = await Promise.all(
    tables.map(async (table) =>
      (await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(table.name)} t`.execute(db)).rows.map((r) => r.row),
    ),
  );
  return texts.flat().join('\n');
}

/** A real app on a fresh SQLite database in a temp dir (or PostgreSQL: `database`), driven with `fastify.inject`. */
export async function startTestApp(options: TestAppOptions = {}) {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-test-'));
  const sandboxUidBase =
    options.sandboxUidBase === undefined ? (canSwitchUsers() ? ownSandboxUidBase() : undefined) : (options.sandboxUidBase ?? undefined);
  ensureDataDir(dataDir, { traversable: sandboxUidBase !== undefined });
  const secrets = new SecretBox(options.secretsKey ?? TEST_SECRETS_KEY);
  const log = createLogger(options.logStream ? 'debug' : false, options.logStream);
  const ownDatabase = options.database === 'postgres' && !options.databaseUrl ? await freshPostgresDatabase({ migrated: true }) : undefined;
  const databaseUrl = options.databaseUrl ?? ownDatabase?.url;
  const db = await openDatabase(dataDir, secrets, databaseUrl, log, options.observeQueries);
  const docker = options.sandboxRuntime === 'docker' ? await dockerSandboxes(options.sandboxNetwork) : undefined;
  const services = createServices(db, secrets, {
    log,
    dataDir,
    sandboxSpecs: options.sandboxSpecs ?? loadSandboxSpecs(undefined),
    // No start timeout within a test's length: a test's shell specs never answer /alive, and a
    // timeout that came first on a slow machine would stand for the exit the test waits for. A
    // test about the timeout sets its own.
    sandboxLimits: { maxSandboxes: 20, maxRunning: 5, startTimeoutMs: 10 * 60_000, stopGraceMs: 2000, ...options.sandboxLimits },
    verifyGitTokens: options.verifyGitTokens ?? false,
    setupScriptTimeoutMs: options.setupScriptTimeoutMs ?? 30_000,
    sandboxUidBase,
    sandboxNamespaces: options.sandboxNamespaces,
    docker,
    instance: { id: loadOrCreateKeyFile(dataDir, 'instance-id'), sessionKey: TEST_SESSION_KEY, timing: options.instanceTiming },
    databaseUrl,
    clock: options.clock,
    oidc: options.oidc,
    passwords: options.passwords ?? new Passwords(CHEAP_ARGON2),
    sandboxesShareNetwork: options.sandboxesShareNetwork,
    eventCollectionRoundMs: options.eventCollectionRoundMs,
    tavilyApiUrl: options.tavilyApiUrl,
    meterTiming: options.meterTiming,
  });
  // As in the server, its own starts are ended only once it holds its id (startMonitoring).
  await services.sandboxes.startMonitoring();
  await services.startTasks.markInterrupted();
  await services.events.listenForNotices();
  await services.collector.start();
  const app = await buildApp({
    sessionKey: TEST_SESSION_KEY,
    services,
    consoleDir: options.consoleDir ?? path.join(dataDir, 'console-not-built'),
    consoleContentSecurityPolicy: options.consoleContentSecurityPolicy,
    cookieSecure: options.cookieSecure,
    metricsToken: options.metricsToken,
    log,
    allowedHosts: options.allowedHosts,
    corsOrigins: options.corsOrigins,
    eventStreamBufferBytes: options.eventStreamBufferBytes,
    checkBuiltResponses: true,
  });

  let address: string | undefined;
  if (options.listen) {
    await app.listen({ host: '127.0.0.1', port: 0 });
    address = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await services.instances.announce(address);
  }

  /** A request carrying the session key (pass `headers` to override). */
  const request = (opts: InjectOptions) => app.inject({ ...opts, headers: { 'x-session-api-key': TEST_SESSION_KEY, ...opts.headers } });

  return {
    app,
    dataDir,
    /** Where its sandboxes run. */
    sandboxRuntime: options.sandboxRuntime ?? 'process',
    /** The first uid its sandboxes run as; `undefined` when they are not isolated. */
    sandboxUidBase,
    /** The database itself, to arrange or check what the API doesn't show. */
    db,
    /** Its PostgreSQL database; `undefined` on SQLite. */
    databaseUrl,
    /** Where it listens (`listen`). */
    address,
    services,
    request,
    getSettings: () => request({ method: 'GET', url: '/api/settings' }),
    /** POSTs `body` as JSON, whatever it is (an array, a string, null…). */
    postSettings: (body: unknown) =>
      request({ method: 'POST', url: '/api/settings', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    /** Every byte SQLite has written (main file and WAL), or every row PostgreSQL holds, to look for plain-text secrets. */
    databaseText: async () =>
      databaseUrl
        ? postgresText(db)
        : fs
            .readdirSync(dataDir)
            .filter((f) => f.startsWith('agent-console.db'))
            .map((f) => fs.readFileSync(path.join(dataDir, f)).toString('latin1'))
            .join(''),
    /** Stops the app; unless `keepData`, its sandboxes (processes and all) and its data dir go too. */
    close: async ({ keepData = false } = {}) => {
      await app.close();
      if (!keepData) {
        // Its own (all of them on SQLite): another instance on the same database deletes its own.
        const own = await db
          .selectFrom('sandboxes')
          .select('id')
          .where((eb) => eb.or([eb('owner_instance', '=', services.instances.id), eb('owner_instance', 'is', null)]))
          .execute();
        for (const { id } of own) await services.sandboxes.delete(sessionKeyCaller, id);
      }
      await db.destroy();
      if (ownDatabase && !keepData) await ownDatabase.drop();
      if (docker && !keepData) await removeDockerLeftovers(docker.engine, dataDir);
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
