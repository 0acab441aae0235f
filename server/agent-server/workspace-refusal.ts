import path from 'node:path';

/** What the workspace routes refuse, with the status they refuse it with. */
export class WorkspaceRefusal extends Error {
  constructor(
    readonly status: 400 | 404 | 422,
    message: string,
  ) {
    super(message);
  }
}

export const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * A refusal for what the file system refused of a path it was given: a permission, a directory
 * where a file was meant, a file where a directory was, a name too long, are 422 (not the agent
 * server failing); anything else the error itself.
 */
export function unreadable(error: unknown, file: string, done: 'read' | 'written' = 'read'): unknown {
  const code = errorCode(error);
  const name = path.basename(file) || file;
  if (code === 'EACCES' || code === 'EPERM') return new WorkspaceRefusal(422, `${name} cannot be ${done}: permission denied`);
  if (code === 'EISDIR') return new WorkspaceRefusal(422, `${name} is a directory: it cannot be ${done} as a file`);
  // Making the file's directories where a file is: EEXIST.
  if (code === 'ENOTDIR' || (done === 'written' && code === 'EEXIST'))
    return new WorkspaceRefusal(422, `${name} cannot be ${done}: a part of its path is a file, not a directory`);
  if (code === 'ENAMETOOLONG') return new WorkspaceRefusal(422, 'The name is too long for the file system');
  if (code === 'EROFS') return new WorkspaceRefusal(422, `${name} cannot be ${done}: the file system is read-only`);
  return error;
}
