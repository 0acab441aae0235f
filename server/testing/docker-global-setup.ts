import type { TestProject } from 'vitest/node';
import { createLogger } from '../logger';
import { checkEngine, dockerFromEnv } from '../sandboxes/docker/engine';
import { ensureDefaultImage } from '../sandboxes/docker/sandbox-image';

declare module 'vitest' {
  export interface ProvidedContext {
    /** TEST_DOCKER=1 and a Docker engine responded when the run began: the docker runtime's tests are collected. */
    dockerEngine: boolean;
  }
}

/**
 * With TEST_DOCKER=1 (`npm test` and `npm run test:docker` set it), checks once per run whether a
 * Docker engine responds. Without one, locally, the run says in one line that the docker suite is
 * not collected; with CI=1 the suite's files fail instead. With one, builds the default sandbox
 * image when missing. Without TEST_DOCKER, processes only.
 */
export default async function setup(project: TestProject): Promise<void> {
  if (!process.env.TEST_DOCKER) {
    project.provide('dockerEngine', false);
    return;
  }
  const docker = dockerFromEnv(process.env.DOCKER_HOST);
  let engineResponds = true;
  try {
    await checkEngine(docker);
  } catch {
    engineResponds = false;
  }
  // Built here, once, after the agent server (build-global-setup.ts): test files building it side
  // by side in their workers would race, each build removing the others' images as older ones.
  if (engineResponds) await ensureDefaultImage(docker, createLogger(false));
  if (!engineResponds && !process.env.CI) {
    console.warn('No Docker engine responds: the docker sandbox tests are not collected (npm run test:docker sets one up and runs them).');
  }
  project.provide('dockerEngine', engineResponds);
}
