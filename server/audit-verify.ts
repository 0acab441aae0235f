import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, databaseLocation } from './config';
import { DATABASE_FILE } from './data-dir';
import { createLogger } from './logger';
import { AuditService } from './services/audit/audit-service';
import { AuditLogStore } from './store/audit-log-store';
import { openPostgres, openSqlite } from './store/database';

/*
 * npm run audit:verify: whether the audit log's chain holds, read from the database the server
 * uses (DATA_DIR's SQLite, or DATABASE_URL); exits 1 at the first entry that does not.
 */

async function main(): Promise<number> {
  // Only the database: a check of the log needs neither the session key nor the secrets key.
  const config = databaseLocation(process.env);
  if (!config.databaseUrl && !fs.existsSync(path.join(config.dataDir, DATABASE_FILE)))
    throw new ConfigError(`No ${DATABASE_FILE} in ${config.dataDir}: set DATA_DIR (or DATABASE_URL) as the server has it.`);
  const db = config.databaseUrl ? openPostgres(config.databaseUrl) : openSqlite(config.dataDir);
  try {
    const result = await new AuditService(new AuditLogStore(db), createLogger(false)).verify();
    const start = result.anchor_seq ? ` (from entry ${result.anchor_seq + 1}: the ones before were pruned)` : '';
    if (result.ok) {
      console.log(`The audit log holds: ${result.checked} entries checked${start}.`);
      return 0;
    }
    const at = result.broken_at!;
    const how = { changed: 'was changed', unlinked: 'does not link to the entry before it', missing: 'is missing' }[at.problem];
    console.log(
      `The audit log does not hold: entry ${at.seq}${at.id ? ` (${at.id})` : ''} ${how}; ${result.checked} entries before it hold${start}.`,
    );
    return 1;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(2);
  },
);
