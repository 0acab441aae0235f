import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** The session key, read from the sign-in link the server printed. */
  key: string;
  /** The link exactly as printed: `http://HOST:PORT/#key=<key>`. */
  signInLink: string;
  dataDir: string;
  /** Everything the server wrote to stdout and stderr so far. */
  output: () => string;
  stop: () => Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Starts the real server (`server/main.ts`, as `npm start` does after building) on a fresh data
 * dir and a free port, and waits for its sign-in link.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-e2e-'));
  const child: ChildProcess = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, CONSOLE_DIR: path.join(ROOT, 'dist'), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 20_000);
    const check = () => {
      const match = /(http:\/\/\S+\/#key=(\S+))/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });

  const url = new URL(link);
  return {
    url: url.origin,
    key: decodeURIComponent(link.split('#key=')[1] ?? ''),
    signInLink: link,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
