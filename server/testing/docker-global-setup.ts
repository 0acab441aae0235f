import type { TestProject } from 'vitest/node';
import { checkEngine, dockerFromEnv } from '../sandboxes/docker/engine';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A Docker engine answered when the run began: the docker runtime's tests are collected. */
    dockerEngine: boolean;
  }
}

/**
 * Checks once per run whether a Docker engine answers. Without one, locally, the run says in one
 * line that the docker suite is not collected; with CI=1 the suite's files fail instead.
 */
export default async function setup(project: TestProject): Promise<void> {
  let answers = true;
  try {
    await checkEngine(dockerFromEnv(process.env.DOCKER_HOST));
  } catch {
    answers = false;
  }
  if (!answers && !process.env.CI) {
    console.warn('No Docker engine answers: the docker sandbox tests are not collected (npm run test:docker sets one up and runs them).');
  }
  project.provide('dockerEngine', answers);
}
