// `npm run sandbox-image`: builds the default sandbox image on the local engine (DOCKER_HOST or
// its default socket), unless it has it already, and removes older default images.
import { ConfigError } from '../../config';
import { createLogger } from '../../logger';
import { checkEngine, dockerFromEnv } from './engine';
import { ensureDefaultImage } from './sandbox-image';

async function buildDefaultImage(): Promise<void> {
  const docker = dockerFromEnv(process.env.DOCKER_HOST);
  await checkEngine(docker);
  process.stdout.write(`${await ensureDefaultImage(docker, createLogger('info'))}\n`);
}

buildDefaultImage().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
});
