import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from './config';
import { SecretBox } from './secret-box';
import { CopyRefused, copySqliteToPostgres } from './store/copy-to-postgres';

/*
 * npm run migrate-to-postgres -- --from DATA_DIR --to postgres://…
 * Copies a data dir's SQLite database into an empty PostgreSQL database, secrets still sealed.
 */

const USAGE = 'Usage: npm run migrate-to-postgres -- --from DATA_DIR --to postgres://user@host/db';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } } });
  const to = values.to ?? process.env.DATABASE_URL;
  if (!values.from || !to) throw new ConfigError(USAGE);
  if (!/^postgres(ql)?:\/\//.test(to)) throw new ConfigError(`--to must be a postgres:// URL. ${USAGE}`);
  const dataDir = path.resolve(values.from);
  // The key the data dir's secrets were sealed with: SECRETS_KEY, else the one the server stored there.
  const fromEnv = process.env.SECRETS_KEY?.trim();
  const keyFile = path.join(dataDir, 'secrets.key');
  if (!fromEnv && !fs.existsSync(keyFile))
    throw new ConfigError(`Set SECRETS_KEY: the key the server in ${dataDir} ran with (it has no secrets.key).`);
  const secrets = new SecretBox(fromEnv || fs.readFileSync(keyFile, 'utf8').trim());
  const counts = await copySqliteToPostgres(dataDir, to, secrets);
  console.log(
    'Copied:',
    Object.entries(counts)
      .map(([table, n]) => `${table} ${n}`)
      .join(', '),
  );
  console.log(
    fromEnv
      ? 'Start every instance with this SECRETS_KEY and DATABASE_URL.'
      : `Start every instance with SECRETS_KEY set to the contents of ${keyFile} (and SESSION_API_KEY, DATABASE_URL).`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof CopyRefused ? error.message : error);
  process.exit(1);
});
