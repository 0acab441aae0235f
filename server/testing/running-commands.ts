import fs from 'node:fs';

/** The pids of this machine's processes whose command line is exactly `command` (words joined by spaces). */
export const running = (command: string): string[] =>
  fs.readdirSync('/proc').filter((pid) => {
    try {
      return /^\d+$/.test(pid) && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() === command;
    } catch {
      return false;
    }
  });
