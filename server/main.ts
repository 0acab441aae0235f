import { ConfigError, configFromEnv, type ServerConfig } from './config';
import type { Logger } from './logger';
import { onStopSignal, openServer } from './run-server';
import { signInMessage, stopMessage } from './start-messages';

/** Once what the logger holds is written: the sign-in link comes after the start's log lines, not among them. */
const logWritten = (log: Logger) => new Promise<void>((resolve) => log.flush(() => resolve()));

async function main(): Promise<void> {
  const config = configFromEnv();
  if (config.upstreamUrl) return mainUpstream({ ...config, upstreamUrl: config.upstreamUrl });
  const server = await openServer(config);
  const { app, signInLink, cookieSignInPage } = await server.serve();
  onStopSignal(server.log, async () => {
    // Counted before the close ends the database.
    const { running } = await server.services.sandboxes.capacity();
    await app.close();
    if (running > 0) console.log(`\n${stopMessage({ running, runtime: config.sandboxRuntime, dataDir: config.dataDir })}`);
  });
  await logWritten(server.log);
  console.log(signInMessage({ heading: 'Agent Console is running.', signInLink, cookieSignInPage }));
}

async function mainUpstream(config: ServerConfig & { upstreamUrl: URL }): Promise<void> {
  // Loaded in this mode only: the proxy is a good part of a start's time.
  const { serveUpstream } = await import('./upstream/run-upstream');
  const { app, log, signInLink } = await serveUpstream(config);
  const keyHint = config.sessionApiKey ? '' : "\nSign in with OpenHands' session key (any key if it has none).\n";
  console.log(`\nAgent Console is running in front of OpenHands at ${config.upstreamUrl.href}. Open:\n\n    ${signInLink}\n${keyHint}`);
  onStopSignal(log, () => app.close());
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
