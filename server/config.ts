import path from 'node:path';

/** Everything the server reads from its environment, in one place. */
export interface ServerConfig {
  host: string;
  port: number;
  /** Database, key files and (later) sandbox directories live here. */
  dataDir: string;
  /** The built console (`vite build` output) served next to the API. */
  consoleDir: string;
  /** Fixed session key; when absent one is generated and kept in the data dir. */
  sessionApiKey: string | undefined;
  /** Key material for secrets at rest; when absent one is generated and kept in the data dir. */
  secretsKey: string | undefined;
  /** Extra browser origins allowed to call the API (the console served elsewhere). */
  corsOrigins: string[];
  /** Check new git provider tokens against the provider's API (VERIFY_GIT_TOKENS=1). */
  verifyGitTokens: boolean;
  logLevel: string;
}

export class ConfigError extends Error {}

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`PORT must be a port number, got "${value}"`);
  return n;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    port: port(env.PORT),
    dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? 'data'),
    consoleDir: path.resolve(nonEmpty(env.CONSOLE_DIR) ?? 'dist'),
    sessionApiKey: nonEmpty(env.SESSION_API_KEY),
    secretsKey: nonEmpty(env.SECRETS_KEY),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    verifyGitTokens: ['1', 'true', 'yes'].includes((env.VERIFY_GIT_TOKENS ?? '').trim().toLowerCase()),
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
  };
}
