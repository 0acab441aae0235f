import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { GitChange, GitDiff } from '../../src/contract/workspace';
import { unreadable, WorkspaceRefusal } from './workspace-refusal';

/*
 * A workspace's changes as the agent SDK's git routes report them: each changed file against the
 * ref the work started from (the remote branch, its default branch, their merge base, or, in a
 * repository with no remote, the empty tree), and one file's text there and now.
 */

const run = promisify(execFile);

/** The SDK's limit: a diff of a larger file is refused, not sent. */
const MAX_DIFF_FILE_BYTES = 1024 * 1024;
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['--no-pager', ...args], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
  });
  return stdout;
}

const succeeds = (cwd: string, args: string[]) =>
  git(cwd, args).then(
    () => true,
    () => false,
  );

/** The root of the repository `dir` is in, or a refusal that says it is none. */
async function repositoryRoot(dir: string): Promise<string> {
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) throw new WorkspaceRefusal(404, `Directory does not exist: ${dir}`);
  try {
    return (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    throw new WorkspaceRefusal(400, `Not a git repository: ${dir}`);
  }
}

/** The ref changes are measured against, as the SDK chooses it. */
async function baseRef(root: string): Promise<string> {
  const branch = (await git(root, ['rev-parse', '--abbrev-ref', 'HEAD']).catch(() => '')).trim();
  const candidates: string[] = [];
  if (branch && branch !== 'HEAD') candidates.push(`origin/${branch}`);
  const remoteHead = (await git(root, ['symbolic-ref', '--short', 'refs/remotes/origin/HEAD']).catch(() => '')).trim();
  if (remoteHead) candidates.push(remoteHead);
  for (const ref of candidates) if (await succeeds(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])) return ref;
  if (remoteHead) {
    const mergeBase = (await git(root, ['merge-base', 'HEAD', remoteHead]).catch(() => '')).trim();
    if (mergeBase) return mergeBase;
  }
  return EMPTY_TREE;
}

const STATUS: Record<string, GitChange['status']> = { M: 'UPDATED', T: 'UPDATED', U: 'UPDATED', A: 'ADDED', D: 'DELETED' };

/** Every file of the repository at `dir` that differs from the base ref (untracked ones are ADDED), by path. */
export async function gitChanges(dir: string): Promise<GitChange[]> {
  const root = await repositoryRoot(dir);
  const ref = await baseRef(root);
  const changes = new Map<string, GitChange['status']>();
  // -z: paths exactly as they are (no quoting of unusual names).
  const fields = (await git(root, ['diff', '--name-status', '-z', ref])).split('\0').filter(Boolean);
  for (let i = 0; i < fields.length;) {
    const code = fields[i++]!;
    if (code.startsWith('R') || code.startsWith('C')) {
      const [from, to] = [fields[i++]!, fields[i++]!];
      if (code.startsWith('R')) changes.set(from, 'DELETED');
      changes.set(to, 'ADDED');
    } else changes.set(fields[i++]!, STATUS[code[0]!] ?? 'UPDATED');
  }
  for (const file of (await git(root, ['ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter(Boolean)) {
    changes.set(file, 'ADDED');
  }
  return [...changes].map(([file, status]) => ({ status, path: file })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `file`'s text at the base ref (`''` when it was not there) and now (`''` when it is gone). */
export async function gitDiff(file: string): Promise<GitDiff> {
  const root = await repositoryRoot(path.dirname(file)).catch(async (error: unknown) => {
    // A deleted file's directory may be gone too: its repository is the nearest one above.
    if (error instanceof WorkspaceRefusal && error.status === 404) return nearestRepository(path.dirname(file));
    throw error;
  });
  const stat = await fs.stat(file).catch(() => undefined);
  if (stat && !stat.isFile()) throw new WorkspaceRefusal(400, `Not a file: ${file}`);
  if (stat && stat.size > MAX_DIFF_FILE_BYTES) throw new WorkspaceRefusal(400, `File too large for a diff: ${file}`);
  const relative = path.relative(root, file);
  const ref = await baseRef(root);
  const original = ref === EMPTY_TREE ? '' : await git(root, ['show', `${ref}:${relative.split(path.sep).join('/')}`]).catch(() => '');
  const modified = stat
    ? await fs.readFile(file, 'utf8').catch((error: unknown) => {
        throw unreadable(error, file);
      })
    : '';
  return { original, modified };
}

async function nearestRepository(dir: string): Promise<string> {
  for (let current = dir; ; current = path.dirname(current)) {
    const stat = await fs.stat(current).catch(() => undefined);
    if (stat?.isDirectory()) return repositoryRoot(current);
    if (path.dirname(current) === current) throw new WorkspaceRefusal(404, `Directory does not exist: ${dir}`);
  }
}
