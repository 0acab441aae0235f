import { constants } from 'node:fs';
import fs from 'node:fs/promises';

/*
 * A process sandbox's output file. The server keeps it outside the sandbox's home, but a sandbox
 * running as the server's own user (no uid isolation) can still reach it and put anything in its
 * place: a directory, a named pipe, a link, a hard link to a file of the server's. So it is opened
 * without following a link and without waiting for a pipe's other end, used only if it is a
 * regular file with no other name, and read and written asynchronously, so no such trick can
 * block or crash the server, or have it show or write another file.
 */

const SAFE = constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Opens `file` with `flags`, returning only a regular file of one name (it throws otherwise). */
async function openRegular(file: string, flags: number): Promise<fs.FileHandle> {
  const handle = await fs.open(file, flags | SAFE, 0o600);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`${file} is not a regular file`);
    if (stat.nlink > 1) throw new Error(`${file} has other names (a hard link)`);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The log opened for appending (created if needed); its fd becomes the sandbox's stdout and stderr. */
export const openLogForAppend = (file: string) => openRegular(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);

/** A line of our own in the log; the sandbox (and its log) may be deleted already. */
export async function appendLog(file: string, line: string): Promise<void> {
  try {
    const handle = await openLogForAppend(file);
    try {
      await handle.write(`[agent-console] ${line}\n`);
    } finally {
      await handle.close();
    }
  } catch {
    // deleted with its sandbox, or not a regular file any more: nobody is to read it
  }
}

export const isOwnLine = (line: string) => line.startsWith('[agent-console]');

/** The last `count` lines of the log (only its end is read); none when it is missing or not a regular file. */
export async function tailLines(file: string, count: number): Promise<string[]> {
  let handle: fs.FileHandle;
  try {
    handle = await openRegular(file, constants.O_RDONLY);
  } catch {
    return [];
  }
  try {
    const size = (await handle.stat()).size;
    const length = Math.min(size, Math.max(64 * 1024, count * 400));
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, size - length);
    const lines = buffer.subarray(0, bytesRead).toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (length < size) lines.shift(); // the first line is probably cut
    return lines.slice(-count);
  } catch {
    return [];
  } finally {
    await handle.close();
  }
}
