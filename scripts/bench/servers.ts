import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command, Ready } from './server-process';

/** The real server and the bare route, in a child process (see server-process.ts). */
export interface BenchServers extends Ready {
  send: (command: Command) => Promise<unknown>;
  /** GET with the session key: status and body. */
  get: (pathAndQuery: string) => Promise<{ status: number; body: string }>;
  /** With the session key (or `key`), and `body` as JSON when given: status and body. */
  request: (method: string, pathAndQuery: string, body?: unknown, key?: string) => Promise<{ status: number; body: string }>;
  close: () => Promise<void>;
}

/** `floorDir`: the floor page's build, served beside the console (see floor-page/). */
export async function startServers(runtime: 'process' | 'docker' = 'process', floorDir?: string): Promise<BenchServers> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'server-process.ts'), floorDir ? [runtime, floorDir] : [runtime], {
    execArgv: ['--import', 'tsx', '--import', path.join(import.meta.dirname, '../lingui-macros.mjs')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bench server exited (${code}) before it was ready`)));
    child.on('message', (message: { ready?: Ready }) => message.ready && resolve(message.ready));
  });
  let next = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (message: { id?: number; result?: unknown; error?: string }) => {
    if (message.id === undefined) return;
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiting?.reject(new Error(message.error));
    else waiting?.resolve(message.result);
  });
  const send = (command: Command) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ id, command });
    });
  const request = async (method: string, pathAndQuery: string, body?: unknown, key = ready.key) => {
    const response = await fetch(`${ready.url}${pathAndQuery}`, {
      method,
      headers: { 'x-session-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.text() };
  };
  return {
    ...ready,
    send,
    request,
    get: (pathAndQuery) => request('GET', pathAndQuery),
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await send({ cmd: 'close' });
      await Promise.race([exited, sleep(10_000)]);
      child.kill();
    },
  };
}
