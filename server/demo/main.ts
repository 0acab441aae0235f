// `npm run demo`: the server (as `npm start` runs it) on a fresh temporary data dir, seeded with a
// team's data through the services the routes call. Ctrl+C deletes its sandboxes and its data dir.
import { sessionKeyCaller } from '../authz/caller';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, configFromEnv, type ServerConfig } from '../config';
import { onStopSignal, type OpenedServer, openServer } from '../run-server';
import { keyLocation, signInMessage } from '../start-messages';
import type { ApiServices } from '../services/create-services';
import { DemoClock } from './demo-clock';
import { writeSpecsFile } from './sandbox-specs';
import { seedDemo } from './seed';

/**
 * The server's configuration from the environment, with the demo's data dir and specs, process
 * sandboxes, and a start timeout long enough for a sandbox to stay STARTING. Sandbox uids (as
 * root) are a block of this process's own, so a demo never ends sandboxes of another server.
 */
function demoConfig(dataDir: string, env = process.env): ServerConfig {
  return configFromEnv({
    ...env,
    DATA_DIR: dataDir,
    SANDBOX_SPECS_FILE: writeSpecsFile(dataDir),
    SANDBOX_RUNTIME: 'process',
    VERIFY_GIT_TOKENS: '',
    SANDBOX_START_TIMEOUT: env.SANDBOX_START_TIMEOUT || '3600',
    SANDBOX_UID_BASE: env.SANDBOX_UID_BASE || String(3_000_000 + (process.pid % 10_000) * 100),
    LOG_LEVEL: env.LOG_LEVEL || 'warn',
  });
}

async function deleteAllSandboxes(services: ApiServices): Promise<void> {
  for (
    let page = await services.sandboxes.search(sessionKeyCaller, { limit: 100 });
    page.items.length > 0;
    page = await services.sandboxes.search(sessionKeyCaller, { limit: 100 })
  ) {
    for (const sandbox of page.items) await services.sandboxes.delete(sessionKeyCaller, sandbox.id);
  }
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-demo-'));
  const removeDataDir = () => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  const clock = new DemoClock();
  let server: OpenedServer;
  let served: Awaited<ReturnType<OpenedServer['serve']>>;
  try {
    server = await openServer(demoConfig(dataDir), { clock: clock.now });
    served = await server.serve();
  } catch (error) {
    removeDataDir(); // nothing runs yet: a bad setting, or the port is taken
    throw error;
  }
  const { services } = server;
  const { app, signInLink, cookieSignInPage } = served;
  const stopping = new AbortController();
  const started = Date.now();
  console.log(`Seeding the demo in ${dataDir} …`);
  const seeding = seedDemo(services, clock, {
    repositoriesDir: path.join(dataDir, 'demo-repositories'),
    sandboxHome: (id) => path.join(dataDir, 'sandboxes', id),
    now: new Date(),
    progress: (message) => console.log(`  ${message}`),
    signal: stopping.signal,
  });
  onStopSignal(server.log, async () => {
    stopping.abort();
    await seeding.catch(() => undefined);
    console.log('Deleting the demo sandboxes and data dir …');
    await deleteAllSandboxes(services);
    await app.close();
    removeDataDir();
  });
  try {
    await seeding;
  } catch (error) {
    if (stopping.signal.aborted) return;
    console.error('The demo could not be seeded; deleting what it made.');
    await deleteAllSandboxes(services).catch(() => undefined);
    await app.close();
    removeDataDir();
    throw error;
  }
  console.log(`Seeded in ${Math.round((Date.now() - started) / 1000)} s.`);
  const heading = `Agent Console demo is running. Press Ctrl+C to stop it: its sandboxes and ${dataDir} are deleted.`;
  console.log(signInMessage({ heading, notes: server.sandboxNotes, signInLink, cookieSignInPage, keyIsIn: keyLocation(server.config) }));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
