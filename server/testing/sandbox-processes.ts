import fs from 'node:fs';
import path from 'node:path';
import { isStopped, markedProcesses, readProcStat } from '../processes/proc';
import { DATA_DIR_LABEL, SANDBOX_LABEL } from '../sandboxes/docker-runtime';
import { CONTAINER_HOME } from '../sandboxes/docker/sandbox-image';
import { SANDBOX_MARKER } from '../sandboxes/process-runtime';
import { localEngine } from './docker-engine';
import type { TestApp } from './test-app';

/*
 * What a sandbox is on this machine, for tests that run on both runtimes: processes marked with
 * its id on the host, or a container and its volume on the engine.
 */

export interface SandboxProcess {
  /** As the host sees it. */
  pid: number;
  /** Its command line, words joined by spaces. */
  args: string;
  /** Stopped by a signal, or frozen by its cgroup's freezer (a paused container). */
  stopped: boolean;
}

const labelled = (t: TestApp, id: string) => JSON.stringify({ label: [`${SANDBOX_LABEL}=${id}`, `${DATA_DIR_LABEL}=${t.dataDir}`] });

const read = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** Whether the freezer of its cgroup holds `pid` (v1 freezer, or v2's cgroup.freeze). */
function frozen(pid: number): boolean {
  const cgroups = read(`/proc/${pid}/cgroup`) ?? '';
  const v1 = /^\d+:freezer:(.*)$/m.exec(cgroups)?.[1];
  if (v1 !== undefined) return read(path.join('/sys/fs/cgroup/freezer', v1, 'freezer.state'))?.trim() === 'FROZEN';
  const v2 = /^0::(.*)$/m.exec(cgroups)?.[1];
  return v2 !== undefined && read(path.join('/sys/fs/cgroup', v2, 'cgroup.freeze'))?.trim() === '1';
}

function describeProcess(pid: number): SandboxProcess | undefined {
  const stat = readProcStat(pid);
  const cmdline = read(`/proc/${pid}/cmdline`);
  if (!stat || cmdline === undefined || stat.state === 'Z') return undefined;
  return { pid, args: cmdline.split('\0').filter(Boolean).join(' '), stopped: isStopped(stat) || frozen(pid) };
}

/** The host pids of its running or paused container's processes, from the engine's `top`; none when it has no such container. */
async function containerPids(t: TestApp, id: string): Promise<number[]> {
  const engine = (await localEngine())!;
  const pids: number[] = [];
  for (const container of await engine.listContainers({ all: true, filters: labelled(t, id) })) {
    if (container.State !== 'running' && container.State !== 'paused') continue;
    const top = await engine.getContainer(container.Id).top();
    const column = top.Titles.indexOf('PID');
    pids.push(...top.Processes.map((row: string[]) => Number(row[column])));
  }
  return pids;
}

/** Every live process of sandbox `id`: the processes carrying its marker, or its container's. */
export async function processesOf(t: TestApp, id: string): Promise<SandboxProcess[]> {
  const pids = t.sandboxRuntime === 'docker' ? await containerPids(t, id) : markedProcesses(SANDBOX_MARKER, id).map((p) => p.pid);
  return pids.map(describeProcess).filter((p) => p !== undefined);
}

/** The sandbox's home, as its processes see it. */
export const homeOf = (t: TestApp, id: string): string =>
  t.sandboxRuntime === 'docker' ? CONTAINER_HOME : path.join(t.dataDir, 'sandboxes', id);

/** What of sandbox `id` is still stored: its home directory, or its containers and volume. */
export async function tracesOf(t: TestApp, id: string): Promise<string[]> {
  if (t.sandboxRuntime === 'process') return fs.existsSync(homeOf(t, id)) ? [homeOf(t, id)] : [];
  const engine = (await localEngine())!;
  const containers = (await engine.listContainers({ all: true, filters: labelled(t, id) })).map((c) => `container ${c.Id}`);
  const volumes = ((await engine.listVolumes({ filters: labelled(t, id) })).Volumes ?? []).map((v) => `volume ${v.Name}`);
  return [...containers, ...volumes];
}
