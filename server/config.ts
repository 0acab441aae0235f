import path from 'node:path';
import { DEFAULT_PASSWORD_HASH_COST, type PasswordHashCost } from './services/team/password-hash-cost';

/** Everything the server reads from its environment, in one place. */
/** An OpenID Connect provider people sign in with (authorization code with PKCE). */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_ALLOW_SIGNUPS=1: a verified email the team does not know yet becomes a new member. */
  allowSignups: boolean;
}

export interface ServerConfig {
  host: string;
  port: number;
  /** The database, the key files and the sandboxes' directories live here. */
  dataDir: string;
  /** The built console (`vite build` output) served next to the API. */
  consoleDir: string;
  /** Fixed session key; when absent one is generated and stored in the data dir. */
  sessionApiKey: string | undefined;
  /** METRICS_TOKEN: a key that reads `GET /metrics` alone (Prometheus'); when absent only owners' and admins' keys do. */
  metricsToken: string | undefined;
  /** Key material for secrets at rest; when absent one is generated and stored in the data dir. */
  secretsKey: string | undefined;
  /** Content-Security-Policy for the served console (CONSOLE_CSP), for a console of another make; the strict one when absent. */
  consoleContentSecurityPolicy: string | undefined;
  /** COOKIE_SECURE: the session cookie is always Secure (behind a TLS proxy whose pages' Origin may not say https). */
  cookieSecure: boolean;
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_ALLOW_SIGNUPS: sign-in with an identity provider; absent when not set up. */
  oidc: OidcConfig | undefined;
  /** PostgreSQL in place of the SQLite file in the data dir (DATABASE_URL, postgres://…). */
  databaseUrl: string | undefined;
  /** Where the other instances on the database reach this one (INSTANCE_URL); where it listens when absent. */
  instanceUrl: string | undefined;
  /** Extra browser origins allowed to call the API (the console served elsewhere). */
  corsOrigins: string[];
  /** Names the server responds to (Host header) besides loopback ones and HOST (ALLOWED_HOSTS). */
  allowedHosts: string[];
  /** Check new git provider tokens against the provider's API (VERIFY_GIT_TOKENS=1). */
  verifyGitTokens: boolean;
  /** More sandbox specs besides the agent server (SANDBOX_SPECS_FILE, JSON). */
  sandboxSpecsFile: string | undefined;
  /** Model prices replacing or adding to the shipped ones (LLM_PRICES_FILE, JSON). */
  llmPricesFile: string | undefined;
  /** Tavily's API, which the agent's web search and the search key's test call (TAVILY_API_URL): its base URL, no trailing slash. */
  tavilyApiUrl: string;
  /**
   * ARGON2_MEMORY_COST (KiB) and ARGON2_TIME_COST (passes): what hashing a password costs; 64 MiB and
   * 3 passes by default. Lower only where passwords guard nothing (tests, a demo on a small machine).
   */
  passwordHashCost: PasswordHashCost;
  maxSandboxes: number;
  maxRunningSandboxes: number;
  /** Seconds a sandbox may take to respond to its health check before it is in ERROR. */
  sandboxStartTimeout: number;
  /** Seconds a deleted sandbox has to exit after SIGTERM before SIGKILL. */
  sandboxStopGrace: number;
  /** Seconds a repository's `.openhands/setup.sh` may run when a conversation starts. */
  setupScriptTimeout: number;
  logLevel: string;
  /** First uid of the users process sandboxes run as when the server is root (SANDBOX_UID_BASE). */
  sandboxUidBase: number;
  /** Where sandboxes run: process groups on this machine, or containers on its Docker engine (SANDBOX_RUNTIME). */
  sandboxRuntime: 'process' | 'docker';
  /**
   * Whether process sandboxes run in namespaces of their own (SANDBOX_NAMESPACES): `auto` when the
   * tools and the kernel allow it, `on` or the server does not start, `off` never.
   */
  sandboxNamespaces: 'auto' | 'on' | 'off';
  /** The sign-in link with its key is printed also when the output is no terminal (PRINT_SIGN_IN_LINK=1). */
  printSignInLink: boolean;
  /** The Docker engine (DOCKER_HOST); its default socket when absent. */
  dockerHost: string | undefined;
  /** Each container's limits: bytes of memory (SANDBOX_MEMORY, e.g. 2g), CPUs (SANDBOX_CPUS), processes (SANDBOX_PIDS). */
  sandboxMemory: number;
  sandboxCpus: number;
  sandboxPids: number;
  /** A real OpenHands to forward `/api/**` to (UPSTREAM_URL); then nothing is stored here. */
  upstreamUrl: URL | undefined;
  /** Days audit log entries are kept (AUDIT_RETENTION_DAYS); 0: for ever. */
  auditRetentionDays: number;
}

export class ConfigError extends Error {}

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`PORT must be a port number, got "${value}"`);
  return n;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number, got "${value}"`);
  return n;
}

function count(name: string, value: string | undefined, fallback: number): number {
  const n = positive(name, value, fallback);
  if (!Number.isInteger(n)) throw new ConfigError(`${name} must be a whole number, got "${value}"`);
  return n;
}

/** Argon2id's own floor is 8 KiB per lane (it uses four): 1 MiB keeps the memory cost meaningful. */
const LEAST_ARGON2_MEMORY_KIB = 1024;

function passwordHashCost(env: NodeJS.ProcessEnv): PasswordHashCost {
  const memoryCost = count('ARGON2_MEMORY_COST', env.ARGON2_MEMORY_COST, DEFAULT_PASSWORD_HASH_COST.memoryCost);
  if (memoryCost < LEAST_ARGON2_MEMORY_KIB) {
    throw new ConfigError(`ARGON2_MEMORY_COST is in KiB and at least ${LEAST_ARGON2_MEMORY_KIB}, got "${env.ARGON2_MEMORY_COST}"`);
  }
  return { memoryCost, timeCost: count('ARGON2_TIME_COST', env.ARGON2_TIME_COST, DEFAULT_PASSWORD_HASH_COST.timeCost) };
}

/** A whole number of days, 0 meaning for ever. */
function days(name: string, value: string | undefined, fallback: number): number {
  if (value?.trim() === '0') return 0;
  return count(name, value, fallback);
}

/** Sandboxes take uids from here up; MCP tests the one below. Low uids belong to the system and to people. */
function uidBase(value: string | undefined): number {
  const n = count('SANDBOX_UID_BASE', value, 200_000);
  if (n < 1001 || n > 2 ** 32 - 2 - 65_536)
    throw new ConfigError(`SANDBOX_UID_BASE must be a uid from 1001 to ${2 ** 32 - 2 - 65_536}, got "${value}"`);
  return n;
}

const RUNTIMES = ['process', 'docker'] as const;

function runtime(value: string | undefined): ServerConfig['sandboxRuntime'] {
  const name = (value ?? '').trim() || 'process';
  const known = RUNTIMES.find((runtime) => runtime === name);
  if (!known) throw new ConfigError(`SANDBOX_RUNTIME must be process or docker, got "${value}"`);
  return known;
}

const NAMESPACE_CHOICES = ['auto', 'on', 'off'] as const;

function namespaces(value: string | undefined): ServerConfig['sandboxNamespaces'] {
  const choice = (value ?? '').trim() || 'auto';
  const known = NAMESPACE_CHOICES.find((known) => known === choice);
  if (!known) throw new ConfigError(`SANDBOX_NAMESPACES must be auto, on or off, got "${value}"`);
  return known;
}

const UNITS: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };

/** Bytes, from `2g`, `512m`, `1.5G` or a plain number of bytes. */
function memory(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 2 * 2 ** 30;
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$/i.exec(value.trim());
  const bytes = match ? Math.floor(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!) : NaN;
  // below 6 MiB the engine refuses to start a container
  if (!(bytes >= 6 * 2 ** 20))
    throw new ConfigError(`SANDBOX_MEMORY must be an amount of memory of 6m or more (like 512m or 2g), got "${value}"`);
  return bytes;
}

/** An http(s) base URL, e.g. `http://openhands:3000`. */
function upstream(value: string | undefined): URL | undefined {
  const text = nonEmpty(value);
  if (text === undefined) return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash)
    throw new ConfigError(`UPSTREAM_URL must be an http(s) URL such as http://127.0.0.1:3000, got "${value}"`);
  // The proxy would drop them (and the origin is printed and shown in the console): OpenHands' key goes in the sign-in link.
  if (url.username || url.password)
    throw new ConfigError("UPSTREAM_URL must not carry a user name or password; sign in with OpenHands' session key instead");
  return url;
}

export const TAVILY_API_URL = 'https://api.tavily.com';

/** TAVILY_API_URL: an http(s) base URL without query or fragment, Tavily's own when unset. */
function tavilyApiUrl(value: string | undefined): string {
  const text = nonEmpty(value);
  if (text === undefined) return TAVILY_API_URL;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password)
    throw new ConfigError(`TAVILY_API_URL must be an http(s) base URL such as ${TAVILY_API_URL}, got "${value}"`);
  return url.href.replace(/\/+$/, '');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A comma-separated list, blanks dropped. */
const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** An on/off setting: `1`, `true` or `yes` is on. */
const flag = (value: string | undefined) => ['1', 'true', 'yes'].includes((value ?? '').trim().toLowerCase());

/**
 * DATABASE_URL, checked: a postgres:// URL, and then fixed keys, since every instance on the
 * database must accept the same session key and open what another sealed.
 */
function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const url = databaseLocation(env).databaseUrl;
  if (url === undefined) return undefined;
  const missing = ['SESSION_API_KEY', 'SECRETS_KEY'].filter((name) => nonEmpty(env[name]) === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      `DATABASE_URL needs ${missing.join(' and ')} set: every instance on a shared database must accept the same session key and open the secrets another sealed, so keys generated in DATA_DIR will not do`,
    );
  }
  return url;
}

/** Where the server's database is (DATA_DIR's SQLite, or DATABASE_URL), for a tool that only reads it and needs no keys. */
export function databaseLocation(env: NodeJS.ProcessEnv): { dataDir: string; databaseUrl?: string } {
  const url = nonEmpty(env.DATABASE_URL);
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url))
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (leave it unset to use SQLite in DATA_DIR)');
  return { dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? 'data'), ...(url === undefined ? {} : { databaseUrl: url }) };
}

/** OIDC_*, checked: all three or none, an https issuer (http only on loopback, for a provider on this machine). */
function oidc(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const [issuer, clientId, clientSecret] = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].map(nonEmpty);
  if (issuer === undefined && clientId === undefined && clientSecret === undefined) return undefined;
  if (issuer === undefined || clientId === undefined || clientSecret === undefined) {
    throw new ConfigError('Sign-in with an identity provider needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, all three');
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError(`OIDC_ISSUER must be a URL, not ${issuer}`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigError('OIDC_ISSUER must be an https:// URL (http:// only for a provider on this machine)');
  }
  return { issuer: url.href.replace(/\/$/, ''), clientId, clientSecret, allowSignups: flag(env.OIDC_ALLOW_SIGNUPS) };
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    port: port(env.PORT),
    dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? 'data'),
    consoleDir: path.resolve(nonEmpty(env.CONSOLE_DIR) ?? 'dist'),
    consoleContentSecurityPolicy: nonEmpty(env.CONSOLE_CSP),
    sessionApiKey: nonEmpty(env.SESSION_API_KEY),
    metricsToken: nonEmpty(env.METRICS_TOKEN),
    secretsKey: nonEmpty(env.SECRETS_KEY),
    databaseUrl: databaseUrl(env),
    instanceUrl: nonEmpty(env.INSTANCE_URL)?.replace(/\/+$/, ''),
    corsOrigins: list(env.CORS_ORIGINS),
    allowedHosts: list(env.ALLOWED_HOSTS),
    verifyGitTokens: flag(env.VERIFY_GIT_TOKENS),
    cookieSecure: flag(env.COOKIE_SECURE),
    oidc: oidc(env),
    sandboxSpecsFile: nonEmpty(env.SANDBOX_SPECS_FILE),
    llmPricesFile: nonEmpty(env.LLM_PRICES_FILE),
    tavilyApiUrl: tavilyApiUrl(env.TAVILY_API_URL),
    passwordHashCost: passwordHashCost(env),
    maxSandboxes: count('MAX_SANDBOXES', env.MAX_SANDBOXES, 20),
    maxRunningSandboxes: count('MAX_RUNNING_SANDBOXES', env.MAX_RUNNING_SANDBOXES, 5),
    sandboxStartTimeout: positive('SANDBOX_START_TIMEOUT', env.SANDBOX_START_TIMEOUT, 30),
    sandboxStopGrace: positive('SANDBOX_STOP_GRACE', env.SANDBOX_STOP_GRACE, 5),
    setupScriptTimeout: positive('SETUP_SCRIPT_TIMEOUT', env.SETUP_SCRIPT_TIMEOUT, 300),
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    sandboxUidBase: uidBase(env.SANDBOX_UID_BASE),
    sandboxRuntime: runtime(env.SANDBOX_RUNTIME),
    sandboxNamespaces: namespaces(env.SANDBOX_NAMESPACES),
    printSignInLink: env.PRINT_SIGN_IN_LINK === '1',
    dockerHost: nonEmpty(env.DOCKER_HOST),
    sandboxMemory: memory(env.SANDBOX_MEMORY),
    sandboxCpus: positive('SANDBOX_CPUS', env.SANDBOX_CPUS, 1),
    sandboxPids: count('SANDBOX_PIDS', env.SANDBOX_PIDS, 512),
    upstreamUrl: upstream(env.UPSTREAM_URL),
    auditRetentionDays: days('AUDIT_RETENTION_DAYS', env.AUDIT_RETENTION_DAYS, 365),
  };
}
