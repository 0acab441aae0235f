import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDumbHttpRepo } from '../../test-support/git/dumb-http-repo';
import { reachableFromSandbox } from '../sandboxes/host-alias';
import { cloneSource } from './clone';

const cleanUps: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0)) await cleanUp();
});

async function serve(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanUps.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as AddressInfo).port;
}

/** `git clone` of `source` into a fresh directory, with nothing of this machine's git configuration (the servers answer meanwhile). */
function clone(source: NonNullable<ReturnType<typeof cloneSource>>): Promise<{ status: number; stderr: string }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-clone-'));
  cleanUps.push(() => fs.rmSync(home, { recursive: true, force: true }));
  return new Promise((resolve) => {
    execFile(
      'git',
      ['clone', '--quiet', '--', source.url, path.join(home, 'repo')],
      { env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', ...source.env }, timeout: 20_000 },
      (error, _stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

describe('cloneSource', () => {
  it('clones a self-hosted provider on this machine by the name sandboxes reach the host by, and public hosts as they are', () => {
    expect(cloneSource('gitlab', 'http://127.0.0.1:8929', 'team/app', null, reachableFromSandbox)?.url).toBe(
      'http://host.docker.internal:8929/team/app.git',
    );
    expect(cloneSource('github', null, 'octo/hello', null, reachableFromSandbox)?.url).toBe('https://github.com/octo/hello.git');
    expect(cloneSource('gitlab', 'http://127.0.0.1:8929', 'team/app', null)?.url).toBe('http://127.0.0.1:8929/team/app.git');
  });

  it('gives the token to the configured host when it asks, and never in the URL or a command line', async () => {
    const repo = await startDumbHttpRepo({ 'octo/hello': { files: { 'README.md': '# hello\n' } } }, 'ghp_right');
    cleanUps.push(() => repo.close());
    const source = cloneSource('github', repo.host, 'octo/hello', 'ghp_right')!;
    expect(source.url).not.toContain('ghp_right');
    const result = await clone(source);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(repo.authorizations).toContain(`Basic ${Buffer.from('x-access-token:ghp_right').toString('base64')}`);
  });

  it('gives the token to no other host, also when the configured one redirects there', async () => {
    // The other host serves the repository to anyone: git goes on fetching from it after the redirect.
    const other = await startDumbHttpRepo({ 'octo/hello': { files: { 'README.md': '# elsewhere\n' } } }, null);
    cleanUps.push(() => other.close());
    const configuredPort = await serve((request, response) => {
      response.writeHead(302, { location: `${other.host}${request.url}` }).end();
    });
    const result = await clone(cloneSource('github', `http://127.0.0.1:${configuredPort}`, 'octo/hello', 'ghp_secret')!);
    expect(result.status).toBe(0);
    expect(other.authorizations.length).toBeGreaterThan(1);
    expect(other.authorizations.filter(Boolean)).toEqual([]);
  });
});
