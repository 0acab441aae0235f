import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from './config';
import { openServer } from './run-server';
import { databasesUnderTest, freshPostgresDatabase } from './testing/databases';

describe.each(databasesUnderTest())('the server on %s', (database) => {
  const cleanUps: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  });

  it('closes without an error: its services stop before its database goes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-close-'));
    cleanUps.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const postgres = database === 'postgres' ? await freshPostgresDatabase() : undefined;
    if (postgres) cleanUps.push(postgres.drop);
    const server = await openServer(
      configFromEnv({
        DATA_DIR: dataDir,
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
        HOST: '127.0.0.1',
        PORT: '0',
        SESSION_API_KEY: 'close-test-session-key-0123456789',
        SECRETS_KEY: 'close-test-secrets-key',
        LOG_LEVEL: 'silent',
        SANDBOX_NAMESPACES: 'off',
        PATH: process.env.PATH,
      }),
    );
    const { app } = await server.serve();
    // The instance registry says at close that this instance stopped: in the database.
    await expect(app.close()).resolves.toBeUndefined();
  });
});
