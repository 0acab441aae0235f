import { sessionKeyCaller } from './authz/caller';
import { pino } from 'pino';
import { ConfigError, configFromEnv, type ServerConfig } from './config';
import { onStopSignal, openServer } from './run-server';
import { keyLocation, signInMessage, stopMessage } from './start-messages';

/** `npm start`, once its modules load; `started()` when it has printed its sign-in link. */
export async function start(started: () => void): Promise<void> {
  const config = configFromEnv();
  if (config.upstreamUrl) {
    await mainUpstream({ ...config, upstreamUrl: config.upstreamUrl });
    return started();
  }
  // Log lines written at once, as console.log's are: the sign-in link comes after the start's, not among them.
  const server = await openServer(config, { logDestination: pino.destination({ dest: process.stdout.fd, sync: true }) });
  const { app, signInLink, cookieSignInPage } = await server.serve();
  onStopSignal(server.log, async () => {
    // Counted before the close ends the database.
    const { running } = await server.services.sandboxes.capacity(sessionKeyCaller);
    await app.close();
    if (running > 0) console.log(`\n${stopMessage({ running, runtime: config.sandboxRuntime, dataDir: config.dataDir })}`);
  });
  const heading = 'Agent Console is running.';
  console.log(signInMessage({ heading, notes: server.sandboxNotes, signInLink, cookieSignInPage, keyIsIn: keyLocation(config) }));
  started();
}

async function mainUpstream(config: ServerConfig & { upstreamUrl: URL }): Promise<void> {
  // Loaded in this mode only: the proxy is a good part of a start's time.
  const { serveUpstream } = await import('./upstream/run-upstream');
  const { app, log, signInLink } = await serveUpstream(config);
  const keyHint = config.sessionApiKey ? '' : "\nSign in with OpenHands' session key (any key if it has none).\n";
  console.log(`\nAgent Console is running in front of OpenHands at ${config.upstreamUrl.href}. Open:\n\n    ${signInLink}\n${keyHint}`);
  onStopSignal(log, () => app.close());
}

/** Says what keeps the server from starting, and ends it. */
export function failedToStart(error: unknown): never {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
}
