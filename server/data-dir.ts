import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Creates the data directory for its owner only (it holds keys and secrets). Where sandboxes run
 * as users of their own (`traversable`), they must pass through it to reach their homes inside:
 * then others may traverse it (0711) but not list it, and every file of the server's in it is 0600.
 */
export function ensureDataDir(dataDir: string, { traversable = false } = {}): void {
  const mode = traversable ? 0o711 : 0o700;
  fs.mkdirSync(dataDir, { recursive: true, mode });
  fs.chmodSync(dataDir, mode);
}

export const DATABASE_FILE = 'agent-console.db';

/**
 * Makes the database file (created empty if needed) and its WAL and shared-memory files 0600
 * before SQLite opens them; SQLite creates those two with the main file's mode.
 */
export function protectDatabaseFiles(dataDir: string): void {
  const main = path.join(dataDir, DATABASE_FILE);
  fs.closeSync(fs.openSync(main, fs.constants.O_CREAT | fs.constants.O_RDWR | fs.constants.O_NOFOLLOW, 0o600));
  for (const file of [main, `${main}-wal`, `${main}-shm`]) {
    try {
      fs.chmodSync(file, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Reads a key stored in the data dir, or creates it (random, file mode 0600) on first use, so the
 * same key survives restarts.
 */
export function loadOrCreateKeyFile(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return key;
}
