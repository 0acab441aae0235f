import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Sets `user.name` / `user.email` in the workspace's git repository from the conversation's
 * environment (GIT_AUTHOR_* first, else GIT_COMMITTER_*), so commits made by hand there carry
 * them too. Nothing happens outside a git repository.
 */
export async function configureGitIdentity(workingDir: string, environment: Record<string, string>): Promise<void> {
  const name = environment.GIT_AUTHOR_NAME ?? environment.GIT_COMMITTER_NAME;
  const email = environment.GIT_AUTHOR_EMAIL ?? environment.GIT_COMMITTER_EMAIL;
  if (!name && !email) return;
  try {
    await run('git', ['rev-parse', '--is-inside-work-tree'], { cwd: workingDir });
  } catch {
    return;
  }
  try {
    if (name) await run('git', ['config', 'user.name', name], { cwd: workingDir });
    if (email) await run('git', ['config', 'user.email', email], { cwd: workingDir });
  } catch (error) {
    console.error('agent-server: could not set the git identity:', (error as Error).message);
  }
}
