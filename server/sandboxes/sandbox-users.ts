import fs from 'node:fs/promises';
import path from 'node:path';
import { runningUids } from '../processes/proc';
import type { ProcessUser } from '../processes/process-user';

/*
 * Which uid each process sandbox runs as, when the server runs as root: one of its own per
 * sandbox, counted up from SANDBOX_UID_BASE (no /etc/passwd entry needed), so a sandbox can read
 * neither the server's files and /proc entries nor another sandbox's. The uid is kept where the
 * sandbox is: its home directory is owned by it; only where the count goes on is kept besides.
 */

/** How many uids sandboxes may take from the base (far more than MAX_SANDBOXES would allow). */
export const UID_RANGE = 65_536;

/** Where the next uid to hand out is kept, in the homes directory (only the server reads it). */
const NEXT_UID_FILE = '.next-uid';

export class SandboxUsers {
  constructor(
    /** First uid of the range; throwaway sandboxes (MCP connection tests) run as `base - 1`. */
    readonly base: number,
  ) {}

  /** The one uid (and gid) every throwaway sandbox (an MCP stdio server under test) runs as. */
  get throwawayUser(): ProcessUser {
    return { uid: this.base - 1, gid: this.base - 1 };
  }

  /**
   * A uid for a new sandbox: the one after the last handed out, going round the range, never one
   * that owns a home (also one being removed, in `.trash`) or runs a process: a deleted sandbox's
   * uid comes back only after every other uid of the range did. Callers hold the lock under which
   * sandboxes are created.
   */
  async allocate(homesDir: string): Promise<ProcessUser> {
    const used = new Set<number>([...(await ownersIn(homesDir)), ...(await ownersIn(path.join(homesDir, '.trash'))), ...runningUids()]);
    const counter = path.join(homesDir, NEXT_UID_FILE);
    const stored = Number(await fs.readFile(counter, 'utf8').catch(() => ''));
    const next = Number.isInteger(stored) && stored >= this.base && stored < this.base + UID_RANGE ? stored : this.base;
    for (let step = 0; step < UID_RANGE; step++) {
      const uid = this.base + ((next - this.base + step) % UID_RANGE);
      if (used.has(uid)) continue;
      await fs.writeFile(counter, String(uid + 1 < this.base + UID_RANGE ? uid + 1 : this.base), { mode: 0o600 });
      return { uid, gid: uid };
    }
    throw new Error(`Every uid from ${this.base} to ${this.base + UID_RANGE - 1} is taken by a sandbox`);
  }

  /** The user a sandbox's processes run as: the owner of its home. Never root: a home that root owns is refused. */
  async of(home: string): Promise<ProcessUser> {
    const { uid, gid } = await fs.stat(home);
    if (uid === 0) throw new Error(`The sandbox directory ${home} belongs to root; its processes would not be isolated`);
    return { uid, gid };
  }
}

/** The owners of the entries of `dir` (none when it does not exist). */
async function ownersIn(dir: string): Promise<number[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const owners = await Promise.all(
    names.map((name) =>
      fs.stat(path.join(dir, name)).then(
        (stat) => stat.uid,
        () => undefined,
      ),
    ),
  );
  return owners.filter((uid): uid is number => uid !== undefined);
}
