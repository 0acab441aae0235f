import fs from 'node:fs';
import path from 'node:path';

/** Where OpenHands' web client believes every workspace is: `/workspace/project[/<repository name>]`. */
const OPENHANDS_PROJECT_ROOT = '/workspace/project';

/**
 * `file` itself, or, when it is under OpenHands' project root and no such path exists here, the
 * same file in `workingDir` (the newest conversation's workspace): OpenHands' web client asks for
 * git changes and diffs there. Its first segment is the repository's name unless the workspace
 * has an entry of that name.
 */
export function openHandsWorkspacePath(file: string, workingDir: string | undefined): string {
  if (!workingDir || fs.existsSync(file)) return file;
  const rest = path.relative(OPENHANDS_PROJECT_ROOT, file);
  if (rest.startsWith('..') || path.isAbsolute(rest)) return file;
  const [first, ...others] = rest === '' ? [] : rest.split(path.sep);
  if (first === undefined) return workingDir;
  return fs.existsSync(path.join(workingDir, first)) ? path.join(workingDir, rest) : path.join(workingDir, ...others);
}
