import fs from 'node:fs';
import path from 'node:path';

/** Linux's clock ticks per second (`getconf CLK_TCK`), what /proc counts CPU time in. */
const CLOCK_TICKS = 100;
/** A workspace walk stops after this many entries: its size is then at least what it counted. */
const MAX_ENTRIES = 200_000;

/** A process's CPU time in seconds (its own and its waited-for children's) and resident memory in bytes; `undefined` once gone. */
export function processUse(pid: number): { cpuSeconds: number; memoryBytes: number } | undefined {
  let stat: string;
  let status: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces): the 3rd field of stat is at index 0.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
  const rss = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return { cpuSeconds: ticks / CLOCK_TICKS, memoryBytes: rss ? Number(rss[1]) * 1024 : 0 };
}

/** The bytes `dir`'s files take (links not followed), walked without blocking the server. */
export async function directorySize(dir: string): Promise<number> {
  let bytes = 0;
  let entries = 0;
  const pending = [dir];
  while (pending.length > 0 && entries < MAX_ENTRIES) {
    const current = pending.pop()!;
    let listed: fs.Dirent[];
    try {
      listed = await fs.promises.readdir(current, { withFileTypes: true });
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    for (const entry of listed) {
      entries++;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile())
        bytes += await fs.promises.lstat(full).then(
          (stat) => stat.blocks * 512,
          () => 0,
        );
    }
  }
  return bytes;
}

/** The size of the filesystem `dir` is on, in bytes. */
export async function filesystemSize(dir: string): Promise<number | null> {
  try {
    const stats = await fs.promises.statfs(dir);
    return stats.blocks * stats.bsize;
  } catch {
    return null;
  }
}
