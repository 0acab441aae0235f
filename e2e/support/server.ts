import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtServerScript } from '../../server/testing/built-server';
import { ownSandboxUidBase } from '../../server/testing/sandbox-uid-base';

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** The session key, read from the sign-in link the server printed. */
  key: string;
  /** The link exactly as printed: `http://HOST:PORT/#key=<key>`. */
  signInLink: string;
  dataDir: string;
  /** Everything the server wrote to stdout and stderr so far (all runs). */
  output: () => string;
  /** Stops the process and starts it again on the same port and data dir, with `env` added. */
  restart: (env?: Record<string, string>) => Promise<void>;
  stop: () => Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Passwords hashed at a test's cost (Argon2id, 1 MiB, one pass): the same code, not the production cost at every sign-in. */
export const CHEAP_PASSWORD_HASHES = { ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1' };

interface Process {
  child: ChildProcess;
  link: string;
}

async function spawnServer(dataDir: string, port: number, env: Record<string, string>, log: (text: string) => void): Promise<Process> {
  const child = spawn(process.execPath, [builtServerScript('main')], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      CONSOLE_DIR: path.join(ROOT, 'dist'),
      LOG_LEVEL: 'warn',
      PRINT_SIGN_IN_LINK: '1',
      // Two workers run servers side by side; as root, each ends what runs as its sandboxes' uids.
      SANDBOX_UID_BASE: String(ownSandboxUidBase()),
      ...CHEAP_PASSWORD_HASHES,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    log(chunk.toString());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 20_000);
    child.stdout?.on('data', () => {
      const match = /(http:\/\/\S+\/#key=\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { child, link };
}

/** How long a server may take to exit after SIGTERM: longer, its test fails saying so, rather than only timing out. */
const EXIT_WAIT_MS = 15_000;

async function stopProcess({ child }: Process, output: () => string): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), EXIT_WAIT_MS)));
  const ended = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (ended !== 'late') return;
  child.kill('SIGKILL');
  await exited;
  throw new Error(`the server did not exit within ${EXIT_WAIT_MS / 1000} s of SIGTERM; its output:\n${output().slice(-4000)}`);
}

async function deleteAllSandboxes({ url, key }: { url: string; key: string }): Promise<void> {
  const headers = { 'X-Session-API-Key': key };
  const page = (await (await fetch(`${url}/api/v1/sandboxes/search?limit=100`, { headers })).json()) as { items: { id: string }[] };
  for (const { id } of page.items) await fetch(`${url}/api/v1/sandboxes/${id}`, { method: 'DELETE', headers });
}

/**
 * Starts the real server (built, as `npm start` runs it) on a fresh data dir and a free port, and
 * waits for its sign-in link.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-e2e-'));
  let output = '';
  const log = (text: string) => (output += text);
  let current = await spawnServer(dataDir, 0, env, log);

  const server: RunningServer = {
    url: '',
    key: '',
    signInLink: '',
    dataDir,
    output: () => output,
    restart: async (extraEnv = {}) => {
      await stopProcess(current, () => output);
      current = await spawnServer(dataDir, Number(new URL(server.url).port), { ...env, ...extraEnv }, log);
      describe(current.link);
    },
    stop: async () => {
      // Sandboxes outlive their server by design: delete them first, so no test leaves processes behind.
      await deleteAllSandboxes(server).catch(() => undefined);
      try {
        await stopProcess(current, () => output);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
  const describe = (link: string) => {
    server.signInLink = link;
    server.url = new URL(link).origin;
    server.key = decodeURIComponent(link.split('#key=')[1] ?? '');
  };
  describe(current.link);
  return server;
}
