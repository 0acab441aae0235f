import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import { DEFAULT_IMAGE_LABEL, ensureDefaultImage } from './sandbox-image';

/*
 * Clearing up older default images at start, against an engine stub (the real engine's part is
 * in sandbox-runtimes.test.ts): another server on the same engine may be removing the same image.
 */

type Image = { Id: string; RepoTags: string[] | null; Labels: Record<string, string> };
const OLDER: Image = { Id: 'sha256:older', RepoTags: ['agent-console-sandbox:older'], Labels: { [DEFAULT_IMAGE_LABEL]: '1' } };

/** An engine that has the current default image and `images`, and fails their removal as `removal` says (else removes them). */
function engine(images: Image[], removal?: { statusCode: number; message: string }) {
  const removed: string[] = [];
  const docker = {
    getImage: (name: string) => ({
      inspect: async () => ({ Id: name }),
      remove: async () => {
        removed.push(name);
        if (removal) throw Object.assign(new Error(removal.message), removal);
      },
    }),
    listImages: async () => images,
  } as unknown as Docker;
  return { docker, removed };
}

describe('the default sandbox image at start', () => {
  it.each([
    ['in use', { statusCode: 409, message: 'conflict: unable to delete (image is being used by running container)' }],
    ['gone already', { statusCode: 404, message: 'No such image' }],
    ['being removed by another server', { statusCode: 500, message: 'unrecognized image ID sha256:older' }],
  ])('starts when an older one cannot be removed (%s)', async (_case, removal) => {
    const { docker, removed } = engine([OLDER], removal);
    await expect(ensureDefaultImage(docker, createLogger(false))).resolves.toMatch(/^agent-console-sandbox:/);
    expect(removed).toEqual(['sha256:older']);
  });

  it('removes older default images only: not one built FROM a default image, nor a step of such a build under way', async () => {
    const labels = (builtAs: string) => ({ [DEFAULT_IMAGE_LABEL]: '1', 'agent-console.image-tag': builtAs });
    const { docker, removed } = engine([
      OLDER,
      { Id: 'sha256:labelled', RepoTags: ['agent-console-sandbox:labelled'], Labels: labels('agent-console-sandbox:labelled') },
      { Id: 'sha256:spec', RepoTags: ['my-spec:1'], Labels: labels('agent-console-sandbox:labelled') },
      // The legacy builder's image of each step, untagged until the last: removed, the next step fails.
      { Id: 'sha256:step', RepoTags: ['<none>:<none>'], Labels: labels('agent-console-sandbox:labelled') },
      { Id: 'sha256:untagged', RepoTags: null, Labels: { [DEFAULT_IMAGE_LABEL]: '1' } },
    ]);
    await ensureDefaultImage(docker, createLogger(false));
    expect(removed).toEqual(['sha256:older', 'sha256:labelled']);
  });
});
