/** How a process ended: its exit code (0 is a clean exit) or the signal that ended it. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** "exited with code 3", "was killed by SIGKILL": the words that follow "The process …". */
export const describeExit = ({ code, signal }: Exit): string => (signal ? `was killed by ${signal}` : `exited with code ${code}`);
