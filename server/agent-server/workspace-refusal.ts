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

/** A refusal for what the file system refused: a permission is 422 (not the agent server failing), anything else the error itself. */
export function unreadable(error: unknown, file: string, done: 'read' | 'written' = 'read'): unknown {
  const code = errorCode(error);
  if (code === 'EACCES' || code === 'EPERM')
    return new WorkspaceRefusal(422, `${path.basename(file) || file} cannot be ${done}: permission denied`);
  return error;
}
