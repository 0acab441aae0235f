import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Exit } from '../processes/exit';
import { endGroup, signalGroup, spawnGroup } from '../processes/group';
import { markedProcesses } from '../processes/proc';
import type { ProcessUser } from '../processes/process-user';
import type { Logger } from '../logger';
import {
  connectNetwork,
  type NamespaceTools,
  onPath,
  sandboxCommand,
  type SandboxMounts,
  serverDirs,
  writeNetworkFiles,
} from './namespaces';
import { CommandNotFound, type ThrowawayCommand, type ThrowawayProcess } from './runtime';

/** In the environment of every process a throwaway sandbox runs: the data dir of the server that started it. */
export const THROWAWAY_MARKER = 'AGENT_CONSOLE_THROWAWAY';

/** Where throwaways' homes are, in the data dir. */
const HOMES = 'throwaway-homes';

/** How long a throwaway's processes have to exit after SIGTERM. */
const GRACE_MS = 1000;

export interface ProcessThrowawayOptions {
  dataDir: string;
  /** What every throwaway's environment starts from: a sandbox's (PATH, LANG, LC_ALL, TZ), as its commands would find it. */
  baseEnv: Record<string, string>;
  log: Logger;
  /** The user they run as when the server is root: never root, nor a sandbox's. */
  user?: ProcessUser;
  /** Each runs in namespaces of its own, with a sandbox's network; absent: on the host's. */
  namespaces?: NamespaceTools;
}

/**
 * Throwaway sandboxes of the process runtime: a process group in namespaces of its own when there
 * are (a sandbox's view of the machine and network, gone with the server that started it), as
 * `user` when the server is root, with a home of its own that goes with it. Without namespaces,
 * on the host: as `user` (root), or as the server's user, which isolates nothing (that mode
 * allows no second user).
 */
export class ProcessThrowaways {
  #etc: SandboxMounts['etc'];

  constructor(private readonly options: ProcessThrowawayOptions) {}

  async start({ command, args, env }: ThrowawayCommand): Promise<ThrowawayProcess> {
    const { user, namespaces, dataDir } = this.options;
    const searchPath = env.PATH ?? this.options.baseEnv.PATH ?? '';
    // Found before it runs: in namespaces, bwrap's own "not found" would read as a command that exited.
    const found = onPath(command, searchPath);
    if (!found) throw new CommandNotFound(command);
    const home = await this.#ownHome();
    const fullEnv = { ...this.options.baseEnv, HOME: home, TMPDIR: home, PATH: searchPath, ...env, [THROWAWAY_MARKER]: dataDir };
    let child: ChildProcess;
    try {
      const launch = namespaces
        ? sandboxCommand(namespaces, this.#mounts(home), [found, ...args], { dieWithParent: true })
        : { file: found, args };
      child = spawnGroup(launch.file, launch.args, {
        env: fullEnv,
        stdio: namespaces ? ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
        ...user,
      });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
    } catch (error) {
      await removeHome(home);
      throw error;
    }
    // 'close' comes after stdout and stderr ended: what it wrote is all read by then.
    const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    let helper: number | undefined;
    let ending: Promise<void> | undefined;
    const end = () =>
      (ending ??= (async () => {
        await endGroup(child.pid!, GRACE_MS);
        if (helper) await endGroup(helper, 0);
        await removeHome(home);
      })());
    if (namespaces) {
      try {
        helper = await connectNetwork(namespaces, child, {
          ports: [],
          controlDir: path.join(dataDir, 'throwaway-network', `control-${path.basename(home)}`),
          user,
          env: { [THROWAWAY_MARKER]: dataDir },
        });
      } catch (error) {
        await end();
        throw error;
      }
    }
    return { stdin: child.stdin as Writable, stdout: child.stdout as Readable, stderr: child.stderr as Readable, exited, end };
  }

  /**
   * Ends the process groups (commands and network helpers) an earlier run on this data dir left
   * behind, and removes their homes (none runs yet: this is called at start); returns how many groups.
   */
  async endLeftovers(): Promise<number> {
    const groups = new Set(markedProcesses(THROWAWAY_MARKER, this.options.dataDir).map((process) => process.pgrp));
    for (const group of groups) {
      try {
        signalGroup(group, 'SIGKILL');
      } catch (error) {
        this.options.log.warn({ group, err: error }, 'could not end a throwaway process group an earlier run left behind');
      }
    }
    await removeHome(path.join(this.options.dataDir, HOMES));
    return groups.size;
  }

  /** HOME and TMPDIR of one throwaway: a directory of its own, which `npx` and `uvx` can write to. */
  async #ownHome(): Promise<string> {
    const { dataDir, user } = this.options;
    const home = path.join(dataDir, HOMES, randomBytes(8).toString('hex'));
    await fs.mkdir(home, { recursive: true, mode: 0o700 });
    if (user) {
      // The user passes through to its own home, without listing the others.
      await fs.chmod(path.dirname(home), 0o711);
      await fs.chown(home, user.uid, user.gid);
    }
    return home;
  }

  /** What a throwaway sees in its namespaces: a sandbox's view, its home its own. */
  #mounts(home: string): SandboxMounts {
    this.#etc ??= writeNetworkFiles(path.join(this.options.dataDir, 'throwaway-network'));
    return { home, hidden: [path.resolve(this.options.dataDir)], shown: serverDirs(), etc: this.#etc, cwd: home };
  }
}

const removeHome = (home: string) => fs.rm(home, { recursive: true, force: true }).catch(() => undefined);
