import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { download, list } from './workspace-files';
import { WorkspaceRefusal } from './workspace-refusal';
import { resolveInWorkspace } from './workspace-paths';

/*
 * What the file system refuses is a 422 that says so, not an error the app server reports as its
 * agent server failing (503). The sandbox's user reads a workspace its agent may have locked;
 * tests run as root, whom no permission stops, so the refusal is the file system's, stubbed.
 */

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'workspace-files-'));
  await fs.mkdir(path.join(dir, 'locked'));
  await fs.writeFile(path.join(dir, 'locked.txt'), 'x');
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => fs.rm(dir, { recursive: true }));

const denied = () => Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
const refusal = (status: number, message: string) => expect.objectContaining({ constructor: WorkspaceRefusal, status, message });

describe('a part of the workspace its user cannot read', () => {
  it('is a 422 for a listing', async () => {
    vi.spyOn(fs, 'readdir').mockRejectedValueOnce(denied());
    await expect(list(path.join(dir, 'locked'))).rejects.toEqual(refusal(422, 'locked cannot be read: permission denied'));
  });

  it('is a 422 for a download, before anything is sent', async () => {
    vi.spyOn(fs, 'access').mockRejectedValueOnce(denied());
    await expect(download(path.join(dir, 'locked.txt'))).rejects.toEqual(refusal(422, 'locked.txt cannot be read: permission denied'));
  });

  it('is a 422 for a path through it', async () => {
    vi.spyOn(fs, 'realpath').mockImplementation(async (file) => {
      if (String(file).startsWith(path.join(dir, 'locked'))) throw denied();
      return String(file);
    });
    await expect(resolveInWorkspace(path.join(dir, 'locked', 'inner.txt'), [dir])).rejects.toEqual(
      refusal(422, 'locked/inner.txt cannot be read: permission denied'),
    );
  });
});
