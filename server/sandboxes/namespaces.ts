import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { HOST_ALIAS } from './host-alias';
import { NON_PUBLIC_IPV4_RANGES } from './non-public-ranges';
import { SANDBOX_PUBLISHED_HOST } from './published-host';
import { AGENT_SERVER_SCRIPT } from './specs';
import type { ProcessUser } from '../processes/process-user';

/*
 * Process sandboxes in namespaces of their own (Linux), with the tools made for it:
 * `unshare` makes a user and a network namespace, `bwrap` (bubblewrap) the pid, mount, ipc and uts
 * namespaces inside it — the host's files read-only, its own /tmp and /proc, its home the one
 * place it writes, DATA_DIR hidden, no capabilities, no new privileges (set-id bits do nothing) —
 * and `slirp4netns` gives the network namespace user-mode networking: the internet through NAT,
 * the host's loopback at a gateway address (named HOST_ALIAS, as containers name it), and only the
 * ports asked for forwarded from the host's loopback (SANDBOX_PUBLISHED_HOST). A sandbox so cannot bind a host port, see
 * another sandbox's processes or files, or signal the server. Why not bwrap's own network
 * namespace: slirp4netns must join the user namespace that owns the network namespace, and bwrap
 * nests its own; `unshare`'s is the owner.
 */

/** The host's loopback and the DNS server, as a sandbox reaches them (slirp4netns' defaults with `--configure`). */
const SANDBOX_NETWORK = { gateway: '10.0.2.2', dns: '10.0.2.3' } as const;

/** Marks the network helper of a sandbox (beside the sandbox marker), so it is never taken for the sandbox's own process. */
export const NETWORK_HELPER_MARKER = 'AGENT_CONSOLE_SANDBOX_NETWORK';

export interface NamespaceTools {
  unshare: string;
  bwrap: string;
  slirp4netns: string;
  nsenter: string;
  /** `iptables-restore` and `setpriv`: the sandbox network's limits (SANDBOX_NETWORK_RULES); without them, none. */
  firewall?: { iptablesRestore: string; setpriv: string };
}

/**
 * What a sandbox's network refuses, as iptables-restore reads it: every non-public range IPv4
 * has (the Docker bridges, the LAN, cloud metadata), but the host at its alias (its loopback: the
 * LLM proxy, the API, a git host or MCP server there) and slirp4netns' DNS. The internet stays
 * open; slirp4netns gives no IPv6.
 */
const SANDBOX_NETWORK_RULES = [
  '*filter',
  ':OUTPUT ACCEPT [0:0]',
  '-A OUTPUT -o lo -j ACCEPT',
  `-A OUTPUT -d ${SANDBOX_NETWORK.gateway}/32 -j ACCEPT`,
  `-A OUTPUT -d ${SANDBOX_NETWORK.dns}/32 -j ACCEPT`,
  ...NON_PUBLIC_IPV4_RANGES.map((range) => `-A OUTPUT -d ${range} -j REJECT`),
  'COMMIT',
  '',
].join('\n');

/** `name`'s path on `searchPath` (a path with a slash: itself), if it is there and executable. */
export function onPath(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  if (name.includes('/')) {
    try {
      fs.accessSync(name, fs.constants.X_OK);
      return name;
    } catch {
      return undefined;
    }
  }
  for (const dir of searchPath.split(':').filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The tools, when all are installed and the kernel lets `user` make namespaces (tried once with a
 * command that does nothing); `undefined` with the reason otherwise. `unlimitedNetwork` says why
 * sandboxes' networks cannot be limited (SANDBOX_NETWORK_RULES), when they cannot.
 */
export function findNamespaceTools(
  user: ProcessUser | undefined,
): { tools: NamespaceTools; unlimitedNetwork?: string } | { tools: undefined; reason: string } {
  const found = { unshare: onPath('unshare'), bwrap: onPath('bwrap'), slirp4netns: onPath('slirp4netns'), nsenter: onPath('nsenter') };
  const missing = Object.entries(found)
    .filter(([, file]) => !file)
    .map(([name]) => name);
  if (missing.length) return { tools: undefined, reason: `not installed: ${missing.join(', ')}` };
  const bare = found as NamespaceTools;
  const refusal = (tools: NamespaceTools) => {
    const trial = spawnSync(tools.unshare, unshareArgs(tools, ['--ro-bind', '/', '/', '--', '/bin/true']), {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 10_000,
      ...user,
    });
    return trial.status === 0 ? undefined : trial.stderr?.toString().trim() || `exit ${trial.status}`;
  };
  // iptables is often outside a user's PATH.
  const systemPath = `${process.env.PATH ?? ''}:/usr/sbin:/sbin`;
  const [iptablesRestore, setpriv] = [onPath('iptables-restore', systemPath), onPath('setpriv', systemPath)];
  const tools = iptablesRestore && setpriv ? { ...bare, firewall: { iptablesRestore, setpriv } } : undefined;
  // With the firewall first: where it works (the usual case), that one trial shows the namespaces work too.
  const firewallRefused = tools && refusal(tools);
  if (tools && !firewallRefused) return { tools };
  const refused = refusal(bare);
  if (refused) return { tools: undefined, reason: `namespaces refused: ${refused}` };
  return {
    tools: bare,
    unlimitedNetwork: firewallRefused
      ? `its rules were refused: ${firewallRefused}`
      : 'iptables-restore and setpriv are not both installed',
  };
}

/**
 * `unshare` making the user and network namespaces, then `bwrap` with `bwrapArgs` in them. With
 * a firewall, the network's rules go in first, with the capabilities the new user namespace
 * grants (`--keep-caps`), which are dropped again before bwrap: the sandbox cannot change them.
 */
function unshareArgs(tools: NamespaceTools, bwrapArgs: string[]): string[] {
  const namespaces = ['--user', '--map-current-user', '--net'];
  if (!tools.firewall) return [...namespaces, '--', tools.bwrap, ...bwrapArgs];
  const { iptablesRestore, setpriv } = tools.firewall;
  return [
    ...namespaces,
    '--keep-caps',
    '--',
    '/bin/sh',
    '-c',
    'printf "%s" "$1" | "$2" && shift 2 && exec "$@"',
    'sandbox-network',
    SANDBOX_NETWORK_RULES,
    iptablesRestore,
    setpriv,
    '--inh-caps=-all',
    '--ambient-caps=-all',
    tools.bwrap,
    ...bwrapArgs,
  ];
}

/** What every sandbox runs from: Node's directory and this project's (its agent server, its tools). */
export const serverDirs = (): string[] => [path.dirname(process.execPath), path.resolve(AGENT_SERVER_SCRIPT, '../../..')];

export interface SandboxMounts {
  /** Where the sandbox writes; bound at the same path. */
  home: string;
  /** Hidden under an empty tmpfs (DATA_DIR: other sandboxes, the database, the keys). */
  hidden: string[];
  /** Bound read-only again over the sandbox's own /tmp (Node and this project, when installed there). */
  shown?: string[];
  /** Its /etc/hosts and /etc/resolv.conf (see `writeNetworkFiles`); the host's when it shares the host's network. */
  etc?: { hosts: string; resolvConf: string };
  /** The directory its command starts in (inside `home`). */
  cwd: string;
}

/**
 * The host's runtime directories (`/run`, and `/var/run` where it is a directory of its own) as
 * empty ones: their sockets are the host's services (the Docker engine's among them), which a
 * sandbox's user reaches through the groups of a server that is not root (namespaces keep them).
 * On the host's network (`hostResolver`), the resolver file /etc/resolv.conf points to there stays.
 */
function hostRuntimeArgs(hostResolver: boolean): string[] {
  const dirs = ['/run', '/var/run'].filter((dir) => fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory());
  const resolver = hostResolver ? realPath('/etc/resolv.conf') : undefined;
  const kept = resolver !== undefined && dirs.some((dir) => resolver.startsWith(`${dir}/`)) ? ['--ro-bind', resolver, resolver] : [];
  return [...dirs.flatMap((dir) => ['--tmpfs', dir]), ...kept];
}

function realPath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

/** bwrap's options for a sandbox's mounts and namespaces (the network one is `unshare`'s). */
function bwrapArgs({ home, hidden, shown = [], etc, cwd }: SandboxMounts): string[] {
  return [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--hostname',
    'sandbox',
    '--ro-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/dev/shm',
    '--tmpfs',
    '/tmp',
    ...hostRuntimeArgs(etc === undefined),
    ...shown.filter((dir) => dir === '/tmp' || dir.startsWith('/tmp/')).flatMap((dir) => ['--ro-bind', dir, dir]),
    ...hidden.flatMap((dir) => ['--tmpfs', dir]),
    '--bind',
    home,
    home,
    ...(etc ? ['--ro-bind', etc.hosts, '/etc/hosts', '--ro-bind', etc.resolvConf, '/etc/resolv.conf'] : []),
    '--chdir',
    cwd,
  ];
}

/**
 * A sandbox's main command, in new namespaces. bwrap tells on fd 3 (`--info-fd`) once they exist
 * and waits for a byte on fd 4 (`--block-fd`) before the command runs, so the command starts with
 * its network in place (`connectNetwork`). With `dieWithParent`, it and all it started end with
 * the process that started it (the server), as a test's command must.
 */
export function sandboxCommand(
  tools: NamespaceTools,
  mounts: SandboxMounts,
  command: string[],
  { dieWithParent = false } = {},
): { file: string; args: string[] } {
  const ending = dieWithParent ? ['--die-with-parent'] : [];
  return {
    file: tools.unshare,
    args: unshareArgs(tools, [...bwrapArgs(mounts), ...ending, '--info-fd', '3', '--block-fd', '4', '--', ...command]),
  };
}

/**
 * A command run in a running sandbox: in its user and network namespaces (those of `pid`, the
 * sandbox's main process), with the sandbox's mounts, and pid namespace and /tmp of its own.
 */
export function commandInSandbox(
  tools: NamespaceTools,
  pid: number,
  mounts: SandboxMounts,
  command: string[],
): { file: string; args: string[] } {
  return {
    file: tools.nsenter,
    args: ['--target', String(pid), '--user', '--net', '--preserve-credentials', '--', tools.bwrap, ...bwrapArgs(mounts), '--', ...command],
  };
}

/** Writes the /etc/hosts (the host's, and HOST_ALIAS for the gateway) and /etc/resolv.conf every sandbox gets, in `dir`. */
export function writeNetworkFiles(dir: string): SandboxMounts['etc'] {
  fs.mkdirSync(dir, { recursive: true, mode: 0o711 });
  fs.chmodSync(dir, 0o711);
  let hosts: string;
  try {
    hosts = fs.readFileSync('/etc/hosts', 'utf8');
  } catch {
    hosts = '127.0.0.1\tlocalhost\n';
  }
  const files = { hosts: path.join(dir, 'hosts'), resolvConf: path.join(dir, 'resolv.conf') };
  fs.writeFileSync(files.hosts, `${hosts.trimEnd()}\n${SANDBOX_NETWORK.gateway}\t${HOST_ALIAS}\n`, { mode: 0o644 });
  fs.writeFileSync(files.resolvConf, `nameserver ${SANDBOX_NETWORK.dns}\n`, { mode: 0o644 });
  return files;
}

/**
 * Resolves once bwrap said on its info fd that it made the namespaces: all of what it says, up to
 * its closing the fd (closed before, it would die of a broken pipe).
 */
function namespacesMade(info: Readable, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => finish(new Error('the namespaces were not made in time')), timeoutMs);
    const onData = (chunk: Buffer) => (text += chunk.toString());
    const onEnd = () => finish(/"child-pid":\s*\d+/.test(text) ? undefined : new Error('bwrap ended before it made the namespaces'));
    const finish = (error?: Error) => {
      clearTimeout(timer);
      // Only its own listeners: the child process counts its streams' ends with one of its own.
      info.off('data', onData).off('error', finish).off('end', onEnd);
      info.destroy();
      if (error) reject(error);
      else resolve();
    };
    info.on('data', onData);
    info.on('error', finish);
    info.on('end', onEnd);
  });
}

/** Lets the command bwrap holds back run (a byte on its block fd), and lets go of the fd: the child's streams all close when it ends. */
function release(block: Writable): void {
  block.end('1', () => block.destroy());
}

/** How long bwrap may take to make a sandbox's namespaces. */
const NAMESPACES_TIMEOUT_MS = 10_000;

/**
 * Gives the namespaces of `child` (a `sandboxCommand`, spawned with pipes as fds 3 and 4) their
 * network once bwrap made them, then lets its command run; resolves with the network helper's pid.
 */
export async function connectNetwork(tools: NamespaceTools, child: ChildProcess, request: Omit<NetworkRequest, 'pid'>): Promise<number> {
  const [, , , info, block] = child.stdio;
  await namespacesMade(info as Readable, NAMESPACES_TIMEOUT_MS);
  // `unshare`'s namespaces (bwrap's nest inside them): the ones the network goes to.
  const helper = await attachNetwork(tools, { ...request, pid: child.pid! });
  release(block as Writable);
  return helper;
}

/** The network namespace `pid` is in, e.g. `net:[4026532184]`; `undefined` when it is gone. */
const networkNamespaceOf = (pid: number | 'self') => {
  try {
    return fs.readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined;
  }
};

/** Whether process `pid` is in a network namespace other than this server's (a sandbox started in namespaces). */
export function inNamespacesOfItsOwn(pid: number): boolean {
  const netns = networkNamespaceOf(pid);
  return netns !== undefined && netns !== networkNamespaceOf('self');
}

export interface NetworkRequest {
  /** The sandbox's main process: its user and network namespaces get the network. */
  pid: number;
  /** Forwarded from the host's SANDBOX_PUBLISHED_HOST to the same port in the sandbox. */
  ports: number[];
  /** A directory of the sandbox's own outside its home, for slirp4netns' API socket while the ports are added. */
  controlDir: string;
  user: ProcessUser | undefined;
  /** The helper's environment: the sandbox's marker, so it is found, paused and ended with the sandbox. */
  env: Record<string, string>;
}

/**
 * Starts slirp4netns for the sandbox (in a process group of its own, marked as its network helper)
 * and forwards `ports`; resolves with its pid once they are forwarded. It runs until it is ended.
 */
async function attachNetwork(tools: NamespaceTools, request: NetworkRequest): Promise<number> {
  const { pid, ports, controlDir, user, env } = request;
  // Never the host's own network namespace: slirp4netns would configure the host.
  if (!inNamespacesOfItsOwn(pid)) throw new Error('the sandbox has no network namespace of its own');
  await fsp.mkdir(controlDir, { recursive: true, mode: 0o700 });
  if (user) await fsp.chown(controlDir, user.uid, user.gid);
  const socket = path.join(controlDir, 'slirp.sock');
  await fsp.rm(socket, { force: true });
  const helper = spawn(
    tools.slirp4netns,
    [
      '--configure',
      '--mtu=65520',
      '--ready-fd=3',
      `--api-socket=${socket}`,
      '--netns-type=path',
      `--userns-path=/proc/${pid}/ns/user`,
      `/proc/${pid}/ns/net`,
      'tap0',
    ],
    // Its chatter goes nowhere: not into the sandbox's log (whose last lines say why a sandbox
    // ended), nor into a pipe it would outlive (a write there would end it).
    { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'pipe'], env: { ...env, [NETWORK_HELPER_MARKER]: '1' }, ...user },
  );
  helper.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('slirp4netns did not get ready in time')), 10_000);
      helper.stdio[3]?.once('data', () => {
        clearTimeout(timer);
        resolve();
      });
      helper.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`slirp4netns exited with code ${code}`));
      });
      helper.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    for (const port of ports) {
      await slirpRequest(socket, {
        execute: 'add_hostfwd',
        arguments: { proto: 'tcp', host_addr: SANDBOX_PUBLISHED_HOST, host_port: port, guest_port: port },
      });
    }
    return helper.pid!;
  } catch (error) {
    if (helper.pid) process.kill(helper.pid, 'SIGKILL');
    throw error;
  } finally {
    helper.stdio[3]?.destroy();
    helper.removeAllListeners();
    // Nobody adds ports later: the socket goes, so nothing else can.
    await fsp.rm(controlDir, { recursive: true, force: true });
  }
}

/** One request to slirp4netns' API socket (one JSON object, then the write side shut). */
function slirpRequest(socket: string, request: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const connection = net.connect(socket);
    let response = '';
    connection.setTimeout(5000, () => connection.destroy(new Error('slirp4netns did not answer')));
    connection.on('connect', () => connection.end(JSON.stringify(request)));
    connection.on('data', (chunk: Buffer) => (response += chunk.toString()));
    connection.on('error', reject);
    connection.on('close', () => {
      try {
        const parsed = JSON.parse(response) as { error?: { desc?: string } };
        if (parsed.error) reject(new Error(`slirp4netns refused: ${parsed.error.desc ?? response}`));
        else resolve();
      } catch {
        reject(new Error(`slirp4netns answered: ${response || 'nothing'}`));
      }
    });
  });
}
