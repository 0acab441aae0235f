import { describe, expect, it } from 'vitest';
import { english } from '../../i18n/english';
import { Unavailable } from '../../domain-errors';
import { responseFor } from '../../http/error-responses';
import { createLogger } from '../../logger';
import { sandboxRecord } from '../../testing/conversation-records';
import { DockerRuntime } from '../docker-runtime';
import { dockerFromEnv } from './engine';
import { engineFailure, isGone } from './engine-errors';
import { LimitedSandboxNetwork } from './network-limits';

/** A runtime whose engine does not respond: every call fails as a real client's does. */
const unreachable = () => {
  const docker = dockerFromEnv('unix:///nonexistent/docker.sock');
  const log = createLogger(false);
  return new DockerRuntime({
    docker,
    dataDir: '/nonexistent/data',
    image: 'unused',
    limits: { memoryBytes: 2 ** 29, cpus: 1, pids: 64 },
    network: new LimitedSandboxNetwork(docker, 'unused', log),
    stopGraceMs: 1000,
    log,
  });
};

const record = sandboxRecord({
  id: 'a1b2',
  port: 8000,
  pid: 0,
  process_start: 'c0ffee',
  created_at: '2026-01-01T00:00:00.000Z',
  started_at: '2026-01-01T00:00:00.000Z',
});

describe("the Docker engine's failures", () => {
  it('become refusals in the words of the engine, returned as 503 with a detail', () => {
    const refused = Object.assign(new Error('(HTTP code 500) server error - cannot pause'), {
      statusCode: 500,
      json: { message: 'cannot pause container c0ffee: freezer not available' },
    });
    const failure = engineFailure('pause sandbox a1b2', refused);
    expect(failure).toBeInstanceOf(Unavailable);
    expect(responseFor('POST /api/v1/sandboxes/:sandbox_id/pause', failure, english)).toEqual({
      status: 503,
      body: { detail: 'The Docker engine could not pause sandbox a1b2: cannot pause container c0ffee: freezer not available' },
    });
    expect(isGone(refused)).toBe(false);
    expect(isGone({ statusCode: 404 })).toBe(true);
    expect(isGone({ statusCode: 409 })).toBe(true);
  });

  it('never leave a pause, a resume, a delete or a look at a sandbox as a bare error', async () => {
    const runtime = unreachable();
    for (const [call, doing] of [
      [() => runtime.pause(record), "list this server's containers"],
      [() => runtime.resume(record), "list this server's containers"],
      [() => runtime.state(record), "list this server's containers"],
      [() => runtime.remove(record), 'delete sandbox a1b2'],
    ] as const) {
      const error = await call().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(Unavailable);
      expect((error as Error).message).toMatch(
        new RegExp(`^The Docker engine could not ${doing}: connect ENOENT /nonexistent/docker.sock`),
      );
    }
  });
});
