import fs from 'node:fs';
import path from 'node:path';

/** The user a process runs as, when the server (as root) starts it as another one. */
export interface ProcessUser {
  uid: number;
  gid: number;
}

/** Whether this server can start processes as other users (it runs as root). */
export const canSwitchUsers = (): boolean => process.getuid?.() === 0;

/** Whether every directory from `/` down to `dir` lets others through (o+x), so any user reaches it. */
export function searchableByOthers(dir: string): boolean {
  const parts = path.resolve(dir).split(path.sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    try {
      if ((fs.statSync(`/${parts.slice(0, i).join('/')}`).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * `PATH` for processes of another user: the entries that user can search. An entry it cannot
 * enter (`/root/.cargo/bin`) would turn every "command not found" into a puzzling EACCES.
 * Checked once per PATH value, at the start of a process (not on a sandbox's path).
 */
export const pathForOtherUsers = memoize((value: string): string => value.split(':').filter(searchableByOthers).join(':'));

function memoize(compute: (value: string) => string): (value: string) => string {
  const known = new Map<string, string>();
  return (value) => {
    let result = known.get(value);
    if (result === undefined) {
      result = compute(value);
      known.set(value, result);
    }
    return result;
  };
}
