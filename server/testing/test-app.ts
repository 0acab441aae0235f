import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from '../app';
import { ensureDataDir } from '../data-dir';
import { canSwitchUsers } from '../processes/process-user';
import { createLogger } from '../logger';
import { SecretBox } from '../secret-box';
import type { SandboxSpec } from '../../src/contract/sandboxes';
import { loadSandboxSpecs } from '../sandboxes/specs';
import { createServices } from '../services/create-services';
import type { SandboxLimits } from '../services/sandbox-service';
import { openDatabase } from '../startup';
import { defaultImage, localEngine, removeDockerLeftovers, type RuntimeName } from './docker-engine';

export const TEST_SESSION_KEY = 'test-session-key-0123456789';
export const TEST_SECRETS_KEY = 'test-secrets-key';

let appsStarted = 0;
/**
 * A block of 100 sandbox uids of this app's own. A server ends whatever runs as a deleted
 * sandbox's uid, and test files run in parallel: apps sharing uids would end each other's sandboxes.
 */
const ownUidBase = () => 10_000_000 + (process.pid % 100_000) * 1_000 + (appsStarted++ % 10) * 100;

export interface TestAppOptions {
  consoleDir?: string;
  consoleContentSecurityPolicy?: string;
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
  /** First uid of the sandboxes' users; `null` runs them as the test's own user. Default: isolated when root, as the server does. */
  sandboxUidBase?: number | null;
  /** Where its sandboxes run: process groups (the default) or containers on the local engine. */
  sandboxRuntime?: RuntimeName;
}

async function dockerSandboxes() {
  const engine = await localEngine();
  if (!engine) throw new Error('sandboxRuntime docker: no Docker engine answers');
  // small limits: tests start many at once on a small machine
  return { engine, image: await defaultImage(engine), limits: { memoryBytes: 512 * 2 ** 20, cpus: 1, pids: 256 } };
}

/** A real app on a fresh SQLite database in a temp dir, driven with `fastify.inject`. */
export async function startTestApp(options: TestAppOptions = {}) {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-test-'));
  const sandboxUidBase =
    options.sandboxUidBase === undefined ? (canSwitchUsers() ? ownUidBase() : undefined) : (options.sandboxUidBase ?? undefined);
  ensureDataDir(dataDir, { traversable: sandboxUidBase !== undefined });
  const secrets = new SecretBox(options.secretsKey ?? TEST_SECRETS_KEY);
  const log = createLogger(options.logStream ? 'debug' : false, options.logStream);
  const db = await openDatabase(dataDir, secrets);
  const docker = options.sandboxRuntime === 'docker' ? await dockerSandboxes() : undefined;
  const services = createServices(db, secrets, {
    log,
    dataDir,
    sandboxSpecs: options.sandboxSpecs ?? loadSandboxSpecs(undefined),
    sandboxLimits: { maxSandboxes: 20, maxRunning: 5, startTimeoutMs: 15_000, stopGraceMs: 2000, ...options.sandboxLimits },
    verifyGitTokens: options.verifyGitTokens ?? false,
    setupScriptTimeoutMs: options.setupScriptTimeoutMs ?? 30_000,
    sandboxUidBase,
    docker,
  });
  await services.startTasks.markInterrupted();
  await services.sandboxes.startMonitoring();
  await services.collector.start();
  const app = await buildApp({
    sessionKey: TEST_SESSION_KEY,
    services,
    consoleDir: options.consoleDir ?? path.join(dataDir, 'console-not-built'),
    consoleContentSecurityPolicy: options.consoleContentSecurityPolicy,
    log,
    allowedHosts: options.allowedHosts,
    corsOrigins: options.corsOrigins,
    checkBuiltAnswers: true,
  });

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
    services,
    request,
    getSettings: () => request({ method: 'GET', url: '/api/settings' }),
    /** POSTs `body` as JSON, whatever it is (an array, a string, null…). */
    postSettings: (body: unknown) =>
      request({ method: 'POST', url: '/api/settings', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    /** Every byte SQLite has written (main file and WAL), to look for plain-text secrets. */
    databaseBytes: () =>
      fs
        .readdirSync(dataDir)
        .filter((f) => f.startsWith('agent-console.db'))
        .map((f) => fs.readFileSync(path.join(dataDir, f)).toString('latin1'))
        .join(''),
    /** Stops the app; unless `keepData`, its sandboxes (processes and all) and its data dir go too. */
    close: async ({ keepData = false } = {}) => {
      await app.close();
      if (!keepData) {
        for (const sandbox of (await services.sandboxes.search({ limit: 100 })).items) await services.sandboxes.delete(sandbox.id);
      }
      await db.destroy();
      if (docker && !keepData) await removeDockerLeftovers(docker.engine, dataDir);
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
