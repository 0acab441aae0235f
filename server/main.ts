import { ConfigError, configFromEnv } from './config';
import { onStopSignal, openServer } from './run-server';

async function main(): Promise<void> {
  const server = await openServer(configFromEnv());
  const { app, signInLink, cookieSignInPage } = await server.serve();
  console.log(`\nAgent Console is running. Open this link to sign in:\n\n    ${signInLink}\n`);
  console.log(`Pages that cannot send the key (OpenHands' web client) sign in at:\n\n    ${cookieSignInPage}\n`);
  onStopSignal(server.log, () => app.close());
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
