import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from './config';

describe('configFromEnv', () => {
  it('runs sandboxes as processes unless configured otherwise, with container limits of 2 GiB, 1 CPU and 512 processes', () => {
    expect(configFromEnv({})).toMatchObject({ sandboxRuntime: 'process', sandboxMemory: 2 * 2 ** 30, sandboxCpus: 1, sandboxPids: 512 });
    expect(configFromEnv({ SANDBOX_RUNTIME: 'docker', SANDBOX_MEMORY: '512m', SANDBOX_CPUS: '0.5', SANDBOX_PIDS: '64' })).toMatchObject({
      sandboxRuntime: 'docker',
      sandboxMemory: 512 * 2 ** 20,
      sandboxCpus: 0.5,
      sandboxPids: 64,
    });
    expect(() => configFromEnv({ SANDBOX_RUNTIME: 'podman' })).toThrow('SANDBOX_RUNTIME must be process or docker, got "podman"');
    expect(() => configFromEnv({ SANDBOX_MEMORY: 'lots' })).toThrow(/SANDBOX_MEMORY must be an amount of memory/);
    expect(() => configFromEnv({ SANDBOX_MEMORY: '1m' })).toThrow(/6m or more/);
  });

  it('hashes passwords with Argon2id at 64 MiB and 3 passes unless told a cost, never below 1 MiB', () => {
    expect(configFromEnv({}).passwordHashCost).toEqual({ memoryCost: 65_536, timeCost: 3 });
    expect(configFromEnv({ ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1' }).passwordHashCost).toEqual({
      memoryCost: 1024,
      timeCost: 1,
    });
    expect(() => configFromEnv({ ARGON2_MEMORY_COST: '512' })).toThrow('ARGON2_MEMORY_COST is in KiB and at least 1024, got "512"');
    expect(() => configFromEnv({ ARGON2_TIME_COST: '0' })).toThrow(/ARGON2_TIME_COST must be a positive number/);
  });

  it('takes DATABASE_URL only with both keys fixed, and says why', () => {
    const url = 'postgres://console@db.example:5432/console';
    expect(configFromEnv({}).databaseUrl).toBeUndefined();
    expect(configFromEnv({ DATABASE_URL: url, SESSION_API_KEY: 'k', SECRETS_KEY: 's' }).databaseUrl).toBe(url);
    expect(() => configFromEnv({ DATABASE_URL: url })).toThrow(
      /DATABASE_URL needs SESSION_API_KEY and SECRETS_KEY set: every instance on a shared database must accept the same session key/,
    );
    expect(() => configFromEnv({ DATABASE_URL: url, SESSION_API_KEY: 'k', SECRETS_KEY: ' ' })).toThrow(
      /DATABASE_URL needs SECRETS_KEY set/,
    );
    expect(() => configFromEnv({ DATABASE_URL: 'mysql://x/y', SESSION_API_KEY: 'k', SECRETS_KEY: 's' })).toThrow(ConfigError);
  });

  it('takes an identity provider with all three OIDC_* values, an https issuer or one on loopback', () => {
    expect(configFromEnv({}).oidc).toBeUndefined();
    const oidc = { OIDC_ISSUER: 'https://id.example.com/', OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 's3cret' };
    expect(configFromEnv(oidc).oidc).toEqual({
      issuer: 'https://id.example.com',
      clientId: 'console',
      clientSecret: 's3cret',
      allowSignups: false,
    });
    expect(configFromEnv({ ...oidc, OIDC_ALLOW_SIGNUPS: '1' }).oidc?.allowSignups).toBe(true);
    expect(configFromEnv({ ...oidc, OIDC_ISSUER: 'http://localhost:9000' }).oidc?.issuer).toBe('http://localhost:9000');
    expect(() => configFromEnv({ ...oidc, OIDC_ISSUER: 'http://id.example.com' })).toThrow(/https/);
    expect(() => configFromEnv({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/all three/);
  });

  it('has defaults for a plain start', () => {
    expect(configFromEnv({})).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      dataDir: path.resolve('data'),
      consoleDir: path.resolve('dist'),
      sessionApiKey: undefined,
      secretsKey: undefined,
      corsOrigins: [],
    });
  });

  it('reads every variable', () => {
    const config = configFromEnv({
      HOST: '0.0.0.0',
      PORT: '8080',
      DATA_DIR: '/tmp/x',
      SESSION_API_KEY: ' k ',
      SECRETS_KEY: 's',
      METRICS_TOKEN: ' m ',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      ALLOWED_HOSTS: 'console.example, 10.0.0.5',
      LLM_PRICES_FILE: ' /etc/agent-console/prices.json ',
      TAVILY_API_URL: 'http://127.0.0.1:4010/tavily/',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      dataDir: '/tmp/x',
      sessionApiKey: 'k',
      secretsKey: 's',
      metricsToken: 'm',
      corsOrigins: ['https://a.example', 'https://b.example'],
      allowedHosts: ['console.example', '10.0.0.5'],
      llmPricesFile: '/etc/agent-console/prices.json',
      tavilyApiUrl: 'http://127.0.0.1:4010/tavily',
    });
  });

  it("searches the web through Tavily's API unless TAVILY_API_URL names another, which must be an http(s) base URL", () => {
    expect(configFromEnv({}).tavilyApiUrl).toBe('https://api.tavily.com');
    for (const bad of ['api.tavily.com', 'ftp://api.tavily.com', 'https://api.tavily.com/?key=x', 'https://user:pw@api.tavily.com']) {
      expect(() => configFromEnv({ TAVILY_API_URL: bad }), bad).toThrow(/TAVILY_API_URL must be an http\(s\) base URL/);
    }
  });

  it('treats blank keys as unset, so a key is generated rather than accepting an empty one', () => {
    expect(configFromEnv({ SESSION_API_KEY: '  ' }).sessionApiKey).toBeUndefined();
    expect(configFromEnv({ METRICS_TOKEN: '  ' }).metricsToken).toBeUndefined();
  });

  it.each(['0', '1000', 'x', '4294967295'])('refuses SANDBOX_UID_BASE=%s (system and people uids, or no room above)', (value) => {
    expect(() => configFromEnv({ SANDBOX_UID_BASE: value })).toThrow(ConfigError);
  });

  it('takes SANDBOX_UID_BASE, 200000 by default', () => {
    expect(configFromEnv({}).sandboxUidBase).toBe(200_000);
    expect(configFromEnv({ SANDBOX_UID_BASE: '300000' }).sandboxUidBase).toBe(300_000);
  });

  it.each(['http', '-1', '70000', '80.5'])('refuses PORT=%s with a clear message', (value) => {
    expect(() => configFromEnv({ PORT: value })).toThrow(ConfigError);
    expect(() => configFromEnv({ PORT: value })).toThrow(`PORT must be a port number, got "${value}"`);
  });
});
