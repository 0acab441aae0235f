import fs from 'node:fs/promises';
import path from 'node:path';
import { errorCode, WorkspaceRefusal } from './workspace-refusal';

/*
 * The file routes serve a conversation's workspace and nothing beside it: a path outside every
 * workspace is not found, and a symbolic link that leads out of one is not followed. The agent
 * can make links to anything its user may read; whoever reads the workspace through the console
 * (its owner, an admin) must not be led by one to the sandbox's other files.
 */

/** `file` is `dir` or below it (both absolute and normalised). */
function inside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * `file` (absolute, normalised) with its links resolved, when it is in one of `roots` and stays
 * there once resolved; a part of it that does not exist yet (an upload's new directories) is
 * kept as it is. Refused: outside every root (404), a link out of its root (422), a part that
 * cannot be read or a name too long (422).
 */
export async function resolveInWorkspace(file: string, roots: readonly string[]): Promise<string> {
  const root = roots.find((dir) => inside(file, dir));
  if (root === undefined) throw new WorkspaceRefusal(404, `Not in the workspace: ${file}`);
  const realRoot = await fs.realpath(root).catch(() => root);
  const shown = (part: string) => path.relative(root, part) || '.';
  const missing: string[] = [];
  for (let existing = file; ;) {
    let real: string;
    try {
      real = await fs.realpath(existing);
    } catch (error) {
      const code = errorCode(error);
      if ((code === 'ENOENT' || code === 'ENOTDIR') && existing !== root) {
        missing.unshift(path.basename(existing));
        existing = path.dirname(existing);
        continue;
      }
      if (code === 'EACCES' || code === 'EPERM') throw new WorkspaceRefusal(422, `${shown(existing)} cannot be read: permission denied`);
      if (code === 'ELOOP') throw new WorkspaceRefusal(422, `${shown(existing)} is a loop of links`);
      if (code === 'ENAMETOOLONG') throw new WorkspaceRefusal(422, 'The name is too long for the file system');
      throw new WorkspaceRefusal(404, `File not found: ${file}`);
    }
    if (!inside(real, realRoot)) {
      throw new WorkspaceRefusal(
        422,
        `${shown(await firstLinkOut(root, realRoot, existing))} is a link out of the workspace: it is not followed`,
      );
    }
    return path.join(real, ...missing);
  }
}

/** The first part of `file` (below `root`) that resolves outside `realRoot`: the link to name. */
async function firstLinkOut(root: string, realRoot: string, file: string): Promise<string> {
  let part = root;
  for (const segment of path.relative(root, file).split(path.sep)) {
    part = path.join(part, segment);
    const real = await fs.realpath(part).catch(() => part);
    if (!inside(real, realRoot)) return part;
  }
  return file;
}
