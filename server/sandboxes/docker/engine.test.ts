import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config';
import { checkEngine, dockerFromEnv } from './engine';

describe('the Docker engine a server uses', () => {
  it('refuses an engine on another machine', () => {
    for (const host of ['tcp://10.1.2.3:2376', 'ssh://builder@example.com', 'npipe:////./pipe/docker_engine']) {
      expect(() => dockerFromEnv(host)).toThrow(ConfigError);
      expect(() => dockerFromEnv(host)).toThrow(`DOCKER_HOST=${host} is not an engine on this machine`);
    }
    expect(() => dockerFromEnv('unix:///run/user/1000/docker.sock')).not.toThrow();
    expect(() => dockerFromEnv('tcp://127.0.0.1:2375')).not.toThrow();
  });

  it('says clearly when none responds', async () => {
    await expect(checkEngine(dockerFromEnv('unix:///nonexistent/docker.sock'))).rejects.toThrow(
      /SANDBOX_RUNTIME=docker but no Docker engine responds \(.*ENOENT.*\); start dockerd, or use SANDBOX_RUNTIME=process/,
    );
  });
});
