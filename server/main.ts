import { ConfigError, configFromEnv, type ServerConfig } from './config';
import { onStopSignal, openServer } from './run-server';
import { serveUpstream } from './upstream/run-upstream';

async function main(): Promise<void> {
  const config = configFromEnv();
  if (config.upstreamUrl) return mainUpstream({ ...config, upstreamUrl: config.upstreamUrl });
  const server = await openServer(config);
  const { app, signInLink, cookieSignInPage } = await server.serve();
  console.log(`\nAgent Console is running. Open this link to sign in:\n\n    ${signInLink}\n`);
  console.log(`Pages that cannot send the key (OpenHands' web client) sign in at:\n\n    ${cookieSignInPage}\n`);
  onStopSignal(server.log, () => app.close());
}

async function mainUpstream(config: ServerConfig & { upstreamUrl: URL }): Promise<void> {
  const { app, log, signInLink } = await serveUpstream(config);
  const keyHint = config.sessionApiKey ? '' : "\nSign in with OpenHands' session key (any key if it has none).\n";
  console.log(`\nAgent Console is running in front of OpenHands at ${config.upstreamUrl.href}. Open:\n\n    ${signInLink}\n${keyHint}`);
  onStopSignal(log, () => app.close());
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
