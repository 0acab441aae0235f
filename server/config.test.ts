import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from './config';

describe('configFromEnv', () => {
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
      CORS_ORIGINS: 'https://a.example, https://b.example',
      ALLOWED_HOSTS: 'console.example, 10.0.0.5',
      LLM_PRICES_FILE: ' /etc/agent-console/prices.json ',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      dataDir: '/tmp/x',
      sessionApiKey: 'k',
      secretsKey: 's',
      corsOrigins: ['https://a.example', 'https://b.example'],
      allowedHosts: ['console.example', '10.0.0.5'],
      llmPricesFile: '/etc/agent-console/prices.json',
    });
  });

  it('treats blank keys as unset, so a key is generated rather than accepting an empty one', () => {
    expect(configFromEnv({ SESSION_API_KEY: '  ' }).sessionApiKey).toBeUndefined();
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
