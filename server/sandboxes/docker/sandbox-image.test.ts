import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import { DEFAULT_IMAGE_LABEL, ensureDefaultImage } from './sandbox-image';

/*
 * Clearing up older default images at start, against an engine stub (the real engine's part is
 * in sandbox-runtimes.test.ts): another server on the same engine may be removing the same image.
 */

/** An engine that has the current default image, one older one, and fails to remove that one as `removal` says. */
function engine(removal: { statusCode: number; message: string }) {
  const removed: string[] = [];
  const docker = {
    getImage: (name: string) => ({
      inspect: async () => ({ Id: name }),
      remove: async () => {
        removed.push(name);
        throw Object.assign(new Error(removal.message), removal);
      },
    }),
    listImages: async () => [{ Id: 'sha256:older', RepoTags: ['agent-console-sandbox:older'], Labels: { [DEFAULT_IMAGE_LABEL]: '1' } }],
  } as unknown as Docker;
  return { docker, removed };
}

describe('the default sandbox image at start', () => {
  it.each([
    ['in use', { statusCode: 409, message: 'conflict: unable to delete (image is being used by running container)' }],
    ['gone already', { statusCode: 404, message: 'No such image' }],
    ['being removed by another server', { statusCode: 500, message: 'unrecognized image ID sha256:older' }],
  ])('starts when an older one cannot be removed (%s)', async (_case, removal) => {
    const { docker, removed } = engine(removal);
    await expect(ensureDefaultImage(docker, createLogger(false))).resolves.toMatch(/^agent-console-sandbox:/);
    expect(removed).toEqual(['sha256:older']);
  });
});
