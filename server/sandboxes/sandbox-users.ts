import fs from 'node:fs/promises';
import path from 'node:path';
import type { ProcessUser } from '../processes/process-user';

/*
 * Which uid each process sandbox runs as, when the server runs as root: one of its own per
 * sandbox, counted up from SANDBOX_UID_BASE (no /etc/passwd entry needed), so a sandbox can read
 * neither the server's files and /proc entries nor another sandbox's. The uid is kept where the
 * sandbox is: its home directory is owned by it. Nothing else records it, so nothing can go stale.
 */

/** How many uids sandboxes may take from the base (far more than MAX_SANDBOXES would allow). */
const UID_RANGE = 65_536;

export class SandboxUsers {
  constructor(
    /** First uid of the range; MCP connection tests run as `base - 1`. */
    readonly base: number,
  ) {}

  /** The one uid (and gid) every MCP stdio server under test runs as. */
  get mcpTestUser(): ProcessUser {
    return { uid: this.base - 1, gid: this.base - 1 };
  }

  /** A uid no sandbox in `homesDir` has; callers hold the lock under which sandboxes are created. */
  async allocate(homesDir: string): Promise<ProcessUser> {
    const used = new Set<number>();
    let names: string[] = [];
    try {
      names = await fs.readdir(homesDir);
    } catch {
      // no sandbox yet
    }
    for (const name of names) {
      try {
        used.add((await fs.stat(path.join(homesDir, name))).uid);
      } catch {
        // removed meanwhile
      }
    }
    for (let uid = this.base; uid < this.base + UID_RANGE; uid++) {
      if (!used.has(uid)) return { uid, gid: uid };
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
