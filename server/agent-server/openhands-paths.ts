import fs from 'node:fs';
import path from 'node:path';

/** Where OpenHands' web client believes every sandbox keeps its files, and every workspace: `/workspace/project[/<repository's directory>]`. */
const OPENHANDS_WORKSPACE = '/workspace';
const OPENHANDS_PROJECT_ROOT = '/workspace/project';

/** `file` relative to `dir` when it is `dir` or below it. */
function below(dir: string, file: string): string | undefined {
  const rest = path.relative(dir, file);
  return rest.startsWith('..') || path.isAbsolute(rest) ? undefined : rest;
}

/**
 * `file` itself where it, or its directory, exists (in a container `/workspace` is the sandbox's
 * home, as in OpenHands'); otherwise a path of OpenHands' web client in `workingDir` (the newest
 * conversation's workspace): under `/workspace/project` where it asks for git changes and diffs,
 * its first segment the repository's directory when it is that of `workingDir`; and
 * `/workspace/<name>`, where it uploads a file.
 */
export function openHandsWorkspacePath(file: string, workingDir: string | undefined): string {
  if (!workingDir || fs.existsSync(file) || fs.existsSync(path.dirname(file))) return file;
  const inProject = below(OPENHANDS_PROJECT_ROOT, file);
  if (inProject !== undefined) {
    const [first, ...others] = inProject === '' ? [] : inProject.split(path.sep);
    return first === path.basename(workingDir) ? path.join(workingDir, ...others) : path.join(workingDir, inProject);
  }
  const inWorkspace = below(OPENHANDS_WORKSPACE, file);
  return inWorkspace === undefined ? file : path.join(workingDir, inWorkspace);
}
