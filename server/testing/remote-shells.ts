import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxSpec } from '../../src/contract/sandboxes';
import { HOST_ALIAS } from '../sandboxes/host-alias';

/*
 * Code a test runs inside sandboxes, as the author of a task could: a sandbox started from one of
 * these specs runs a small Node loop that asks a control server on the host (reached at the host
 * alias, as every sandbox reaches the host) for code, runs it and posts back what it returned.
 * The test writes its attacks as plain JavaScript and judges what came back.
 */

/**
 * The loop in the sandbox: long-polls `/next/<name>`, runs the body it gets as an async function
 * given `require`, posts the outcome. It answers health checks on its port as an agent server does.
 */
const BOOT = `
const base = process.env.REMOTE_CONTROL, name = process.env.REMOTE_NAME;
const AsyncFunction = (async () => {}).constructor;
const pause = () => new Promise((resolve) => setTimeout(resolve, 250));
// Health checks, as of any agent server.
require('http').createServer((request, response) => response.end('{"status":"ok"}')).listen(Number(process.env.PORT), process.env.HOST);
(async () => {
  for (;;) {
    let job;
    try {
      const response = await fetch(base + '/next/' + name);
      if (response.status !== 200) { await pause(); continue; }
      job = await response.json();
    } catch { await pause(); continue; }
    let outcome;
    try { outcome = { value: await new AsyncFunction('require', job.code)(require) }; }
    catch (error) { outcome = { error: String((error && error.stack) || error) }; }
    await fetch(base + '/done/' + job.id, { method: 'POST', body: JSON.stringify(outcome ?? {}) }).catch(() => {});
  }
})();
`;

/** How long a sandbox's request for code is held open when there is none. */
const LONG_POLL_MS = 15_000;

export interface RemoteShells {
  /** The spec of a sandbox driven as `name`, as SANDBOX_SPECS_FILE holds it: the spec's id is the name. */
  spec: (name: string) => Omit<SandboxSpec, 'created_at'>;
  /** Runs `body` (an async function's body; `require` in scope) in the sandbox driven as `name`, once it asks; what it returned. */
  run: <T = unknown>(name: string, body: string, timeoutMs?: number) => Promise<T>;
  close: () => Promise<void>;
}

interface Job {
  id: string;
  name: string;
  code: string;
  settle: (outcome: { value?: unknown; error?: string }) => void;
}

/** A control server listening on `host` (where sandboxes of the runtime reach the host) for sandboxes to take code from. */
export async function startRemoteShells(host: string): Promise<RemoteShells> {
  const queued: Job[] = [];
  const sent = new Map<string, Job>();
  const waiting = new Map<string, http.ServerResponse>();
  let next = 0;

  const hand = (response: http.ServerResponse, job: Job) => {
    sent.set(job.id, job);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: job.id, code: job.code }));
  };

  const server = http.createServer((request, response) => {
    const [, verb, key = ''] = (request.url ?? '').split('/');
    if (verb === 'next') {
      const index = queued.findIndex((job) => job.name === key);
      if (index >= 0) return hand(response, queued.splice(index, 1)[0]!);
      waiting.get(key)?.writeHead(204).end();
      waiting.set(key, response);
      const timer = setTimeout(() => waiting.get(key) === response && (waiting.delete(key), response.writeHead(204).end()), LONG_POLL_MS);
      response.on('close', () => {
        clearTimeout(timer);
        if (waiting.get(key) === response) waiting.delete(key);
      });
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const job = verb === 'done' ? sent.get(key) : undefined;
      sent.delete(key);
      response.writeHead(job ? 204 : 404).end();
      try {
        job?.settle(JSON.parse(body) as { value?: unknown; error?: string });
      } catch {
        job?.settle({ error: `not JSON: ${body.slice(0, 200)}` });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const control = `http://${HOST_ALIAS}:${(server.address() as AddressInfo).port}`;

  return {
    spec: (name) => ({
      id: name,
      command: ['sh', '-c', 'exec node -e "$REMOTE_BOOT"'],
      initial_env: { REMOTE_BOOT: BOOT, REMOTE_CONTROL: control, REMOTE_NAME: name },
      working_dir: '',
    }),
    run: <T>(name: string, code: string, timeoutMs = 30_000) =>
      new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          // Never run later, by a sandbox that asks again.
          queued.splice(queued.indexOf(job), queued.includes(job) ? 1 : 0);
          sent.delete(job.id);
          reject(new Error(`${name} did not run the code within ${timeoutMs} ms`));
        }, timeoutMs);
        const job: Job = {
          id: String(next++),
          name,
          code,
          settle: ({ value, error }) => {
            clearTimeout(timer);
            if (error === undefined) resolve(value as T);
            else reject(new Error(`in ${name}: ${error}`));
          },
        };
        const poller = waiting.get(name);
        waiting.delete(name);
        if (poller) hand(poller, job);
        else queued.push(job);
      }),
    close: async () => {
      for (const response of waiting.values()) response.writeHead(204).end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
