import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { builtServerScript } from '../server/testing/built-server';

/** A running demo, known by the sign-in link it printed. */
export interface DemoConnection {
  /** `http://127.0.0.1:<port>/#key=<key>` */
  signInLink: string;
  url: string;
  key: string;
  /** A GET of the API with the session key, parsed. */
  get: <T>(apiPath: string) => Promise<T>;
}

/** `npm run demo`'s server (built from `server/demo/main.ts`) in a process of its own, seeded and listening. */
export interface DemoProcess extends DemoConnection {
  /** The temporary data dir it seeded. */
  dataDir: string;
  /** Everything it printed so far. */
  output: () => string;
  /** Sends `signal` (SIGINT is Ctrl+C) and waits until it exited; returns its exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export function connectToDemo(signInLink: string): DemoConnection {
  const url = new URL(signInLink).origin;
  const key = decodeURIComponent(signInLink.split('#key=')[1] ?? '');
  return {
    signInLink,
    url,
    key,
    get: async <T>(apiPath: string) => {
      const response = await fetch(`${url}${apiPath}`, { headers: { 'X-Session-API-Key': key } });
      if (!response.ok) throw new Error(`GET ${apiPath}: HTTP ${response.status}`);
      return (await response.json()) as T;
    },
  };
}

const ROOT = path.resolve(import.meta.dirname, '..');
/** Seeding makes 200 conversations: under a minute on two quiet cores, a few on busy ones. */
const SEED_TIMEOUT_MS = 240_000;

/** Starts the demo on a free port (the console and the server must be built) and waits until it printed its sign-in link. */
export async function startDemo(env: Record<string, string> = {}): Promise<DemoProcess> {
  // Node itself, not npm in front of it: the signal goes to the demo, as Ctrl+C in a terminal does.
  const child: ChildProcess = spawn(process.execPath, [builtServerScript('demo')], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', CONSOLE_DIR: path.join(ROOT, 'dist'), PRINT_SIGN_IN_LINK: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const signInLink = await new Promise<string>((resolve, reject) => {
    // Stopped, not left seeding: its Ctrl+C handler deletes its sandboxes and data dir.
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      void exited.then(() => reject(new Error(`the demo did not start in time:\n${output}`)));
    }, SEED_TIMEOUT_MS);
    child.stdout?.on('data', () => {
      const link = /(http:\/\/\S+\/#key=\S+)/.exec(output)?.[1];
      if (link) {
        clearTimeout(timer);
        resolve(link);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the demo exited with ${code}:\n${output}`));
    });
  });
  return {
    ...connectToDemo(signInLink),
    dataDir: /Seeding the demo in (\S+) /.exec(output)?.[1] ?? '',
    output: () => output,
    stop: async (signal = 'SIGINT') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
