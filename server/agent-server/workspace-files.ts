import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { DirectoryEntry, DirectoryListing } from '../../src/contract/workspace';
import { unreadable, WorkspaceRefusal } from './workspace-refusal';

/*
 * The sandbox's files as the agent SDK's file routes serve them (an upload, a download), and two of
 * ours the SDK lacks: a directory's entries, and a directory as a gzipped tar. Paths are absolute,
 * as the sandbox sees them; the agent server reads and writes only what the sandbox's user may.
 */

/** An upload larger than this is refused; the workspace is for code, not for data sets. */
const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
/** A directory listing stops here (and says it did): a build folder can hold far more. */
const MAX_ENTRIES = 2000;

export function absolute(file: string): string {
  if (!path.isAbsolute(file)) throw new WorkspaceRefusal(400, 'Path must be absolute');
  return path.normalize(file);
}

async function statOf(file: string) {
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat) throw new WorkspaceRefusal(404, 'File not found');
  return stat;
}

/** A file to send as an attachment. */
export async function download(file: string) {
  const target = absolute(file);
  const stat = await statOf(target);
  if (!stat.isFile()) throw new WorkspaceRefusal(400, 'Path is not a file');
  await fs.access(target, fs.constants.R_OK).catch((error: unknown) => {
    throw unreadable(error, target);
  });
  return {
    stream: createReadStream(target),
    headers: {
      'content-type': 'application/octet-stream',
      'content-length': String(stat.size),
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(path.basename(target))}`,
    },
  };
}

/**
 * Writes the multipart field `file` of `request` to `file`, its directories made as needed. It is
 * written beside it first and takes its place once whole: a refused or broken upload leaves the
 * file that was there as it was.
 */
export async function upload(file: string, request: http.IncomingMessage): Promise<void> {
  const target = absolute(file);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: request.headers, limits: { files: 1, fileSize: MAX_UPLOAD_BYTES } });
  } catch {
    throw new WorkspaceRefusal(400, 'Expected a multipart/form-data body with a file field');
  }
  // Named apart from the file's own name, so that any name that fits the file system fits it too.
  const partial = path.join(path.dirname(target), `.${randomUUID()}.upload`);
  const written = new Promise<void>((resolve, reject) => {
    let received = false;
    parser.on('file', (name, stream) => {
      if (name !== 'file' || received) return stream.resume();
      received = true;
      let tooLarge = false;
      stream.on('limit', () => (tooLarge = true));
      fs.mkdir(path.dirname(target), { recursive: true })
        .then(() => pipeline(stream, createWriteStream(partial)))
        .then(() => {
          if (tooLarge) throw new WorkspaceRefusal(400, `A file over ${MAX_UPLOAD_BYTES} bytes cannot be uploaded`);
          return fs.rename(partial, target);
        })
        .then(resolve, (error: unknown) => reject(unreadable(error, target, 'written')));
    });
    parser.on('close', () => {
      if (!received) reject(new WorkspaceRefusal(400, 'Expected a multipart/form-data body with a file field'));
    });
    parser.on('error', () => reject(new WorkspaceRefusal(400, 'The multipart body could not be read')));
    // A client that goes away mid-upload ends it: the parser would wait for the rest forever.
    request.on('aborted', () => reject(new WorkspaceRefusal(400, 'The upload broke off')));
  });
  request.pipe(parser);
  try {
    await written;
  } finally {
    // Where its directory could not be made there is none to remove (ENOTDIR).
    await fs.rm(partial, { force: true }).catch(() => undefined);
  }
}

/** A directory's entries, directories first, each group by name. */
export async function list(dir: string): Promise<DirectoryListing> {
  const target = absolute(dir);
  const stat = await statOf(target);
  if (!stat.isDirectory()) throw new WorkspaceRefusal(400, 'Path is not a directory');
  const names = (
    await fs.readdir(target).catch((error: unknown) => {
      throw unreadable(error, target);
    })
  ).sort();
  const entries = await Promise.all(
    names.slice(0, MAX_ENTRIES).map(async (name): Promise<DirectoryEntry> => {
      const entry = await fs.lstat(path.join(target, name)).catch(() => undefined);
      const type = entry?.isSymbolicLink() ? 'link' : entry?.isDirectory() ? 'directory' : entry?.isFile() ? 'file' : 'other';
      const linkTarget = type === 'link' ? await fs.readlink(path.join(target, name)).catch(() => null) : undefined;
      return {
        name,
        type,
        size: type === 'file' ? (entry?.size ?? null) : null,
        modified_at: (entry?.mtime ?? new Date(0)).toISOString(),
        ...(linkTarget !== undefined && { link_target: linkTarget }),
      };
    }),
  );
  const rank = (entry: DirectoryEntry) => (entry.type === 'directory' ? 0 : 1);
  entries.sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : 1));
  return { path: target, entries, truncated: names.length > MAX_ENTRIES };
}

/** A directory as a gzipped tar, streamed as `tar` writes it. */
export async function archive(dir: string) {
  const target = absolute(dir);
  const stat = await statOf(target);
  if (!stat.isDirectory()) throw new WorkspaceRefusal(400, 'Path is not a directory');
  const tar = spawn('tar', ['-czf', '-', '-C', target, '.'], { stdio: ['ignore', 'pipe', 'ignore'] });
  // A tar that fails (or is missing) ends the download with an error, not with a short archive that looks whole.
  const fail = (reason: string) => tar.stdout.destroy(new Error(`The archive could not be made: ${reason}`));
  tar.on('error', (error) => fail(error.message));
  // Exit code 1 is a file that changed while it was read (the agent may be working): the archive is whole all the same.
  tar.on('close', (code) => {
    if (code !== 0 && code !== 1) fail(`tar exited with code ${code}`);
  });
  const name = `${path.basename(target) || 'workspace'}.tar.gz`;
  return {
    stream: tar.stdout,
    headers: { 'content-type': 'application/gzip', 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}` },
  };
}
