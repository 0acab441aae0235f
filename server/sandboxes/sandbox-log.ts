import fs from 'node:fs';

/*
 * A process sandbox's output file. The sandbox owns the directory it is in, so it may have put
 * anything in the file's place: a symlink is never followed.
 */

export const openLog = (file: string, flags: number) => fs.openSync(file, flags | fs.constants.O_NOFOLLOW, 0o600);

export const openLogForAppend = (file: string) => openLog(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT);

/** A line of our own in the log; the sandbox (and its log) may be deleted already. */
export function appendLog(file: string, line: string): void {
  try {
    const fd = openLogForAppend(file);
    try {
      fs.writeSync(fd, `[agent-console] ${line}\n`);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // deleted with its directory, or not a plain file any more: nobody is to read it
  }
}

export const isOwnLine = (line: string) => line.startsWith('[agent-console]');

/** The last `count` lines of the log (only its end is read). */
export function tailLines(file: string, count: number): string[] {
  let fd: number;
  try {
    fd = openLog(file, fs.constants.O_RDONLY);
  } catch {
    return [];
  }
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, Math.max(64 * 1024, count * 400));
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (length < size) lines.shift(); // the first line is probably cut
    return lines.slice(-count);
  } finally {
    fs.closeSync(fd);
  }
}
