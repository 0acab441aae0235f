import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Creates the data directory readable by its owner only (it holds keys and secrets). */
export function ensureDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
}

/**
 * Reads a key kept in the data dir, or creates it (random, file mode 0600) on first use, so the
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
