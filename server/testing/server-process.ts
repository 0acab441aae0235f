import { type ChildProcess, spawn } from 'node:child_process';
import { builtServerScript } from './built-server';

/** The real server, built as `npm start` runs it, in a process of its own, for suites that must see it from outside: kill it, ping it while it works. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  key: string;
  pid: number;
  /** Everything it printed, stdout and stderr. */
  output: () => string;
  /** A request with the session key, JSON in and out. */
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: string }>;
  /** SIGTERM, and waits until it exited. */
  stop: () => Promise<void>;
  /** SIGKILL, and waits until it exited. */
  kill: () => Promise<void>;
}

export interface ServerProcessOptions {
  dataDir: string;
  env?: Record<string, string>;
  /** Runs it as this uid (and gid) through `setpriv`; the test must be root. */
  asUser?: number;
  /** With `asUser`, these supplementary groups (the Docker socket's); none otherwise. */
  groups?: number[];
  /** The entry to run: build/server/main.js unless a copy of it. */
  script?: string;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

export async function startServerProcess({
  dataDir,
  env = {},
  asUser,
  groups = [],
  script = builtServerScript('main'),
}: ServerProcessOptions): Promise<ServerProcess> {
  const node = [process.execPath, script];
  const groupOption = groups.length ? `--groups=${groups.join(',')}` : '--clear-groups';
  const command = asUser === undefined ? node : ['setpriv', `--reuid=${asUser}`, `--regid=${asUser}`, groupOption, ...node];
  const child = spawn(command[0]!, command.slice(1), {
    env: {
      PATH: process.env.PATH,
      HOME: dataDir,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      CONSOLE_DIR: `${dataDir}/no-console`,
      PRINT_SIGN_IN_LINK: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [url, key] = await new Promise<[string, string]>((resolve, reject) => {
    const look = () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/#key=(\S+)/.exec(output);
      if (match?.[1] && match[2]) resolve([match[1], match[2]]);
    };
    child.stdout!.on('data', look);
    child.once('exit', () => reject(new Error(`the server exited before it listened:\n${output}`)));
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-session-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.text() };
  };
  return {
    url,
    key,
    pid: child.pid!,
    output: () => output,
    call,
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}

/** Requests `GET /alive` one request after another until stopped; each must get a 200 response (the server never stalls). */
export function pingAlive(url: string) {
  let stopped = false;
  let ok = 0;
  const failures: string[] = [];
  const run = (async () => {
    for (let i = 0; i < 1_000_000 && !stopped; i++) {
      try {
        // A generous bound: a response this late is a stalled server, not a slow one.
        const response = await fetch(`${url}/alive`, { signal: AbortSignal.timeout(10_000) });
        if (response.status === 200) ok++;
        else failures.push(`HTTP ${response.status}`);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    /** Stops asking after the request under way, and returns how they went: 200 responses, and failures. */
    stop: async () => {
      stopped = true;
      await run;
      return { ok, failures };
    },
  };
}
