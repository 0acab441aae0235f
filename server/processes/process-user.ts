import fs from 'node:fs';
import path from 'node:path';

/** The user a process runs as, when the server (as root) starts it as another one. */
export interface ProcessUser {
  uid: number;
  gid: number;
}

/** Whether this server can start processes as other users (it runs as root). */
export const canSwitchUsers = (): boolean => process.getuid?.() === 0;

/**
 * The first directory from `/` down to `dir` that does not let others through (o+x), or is
 * missing; `undefined` when any user reaches `dir`.
 */
function firstClosed(dir: string): { dir: string; missing: boolean } | undefined {
  const parts = path.resolve(dir).split(path.sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const current = `/${parts.slice(0, i).join('/')}`;
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(current);
    } catch {
      return { dir: current, missing: true }; // or not ours to look into: not reached either way
    }
    if ((stat.mode & 0o001) === 0) return { dir: current, missing: false };
  }
  return undefined;
}

/** The first directory from `/` down to `dir` that is there but does not let others through (o+x). */
export function closedToOthers(dir: string): string | undefined {
  const closed = firstClosed(dir);
  return closed && !closed.missing ? closed.dir : undefined;
}

/** Whether every directory from `/` down to `dir` is there and lets others through (o+x), so any user reaches it. */
export const searchableByOthers = (dir: string): boolean => firstClosed(dir) === undefined;

const modeOf = (file: string) => `0${(fs.statSync(file).mode & 0o777).toString(8)}`;

/**
 * Why a sandbox's user (another user, a stranger to every file here) cannot run `file`, and what
 * to change, in one sentence; `undefined` when it can, or when `file` is not there (that is said
 * where it is run): every directory above it lets others through, and it lets them read it.
 */
export function unreadableByOthers(file: string, what: string): string | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  // A directory is entered, not read: it must let others through itself.
  const closed = closedToOthers(stat?.isDirectory() ? file : path.dirname(file));
  if (closed !== undefined) {
    return `Sandboxes run as other users, who cannot enter ${closed} (mode ${modeOf(closed)}), where ${what} is (${file}): install it under a directory others can enter (such as /opt), or let them through with: chmod o+x ${closed}`;
  }
  if (stat?.isFile() && (stat.mode & 0o004) === 0) {
    return `Sandboxes run as other users, who cannot read ${what} (${file}, mode ${modeOf(file)}): let them with: chmod o+r ${file}`;
  }
  return undefined;
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
