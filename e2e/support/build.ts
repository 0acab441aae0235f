import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The e2e tests drive what `npm start` runs: the console, the agent server and the server, and start the stdio MCP server; built when out of date. */
export default function build(): void {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'scripts/build-if-needed.mjs'), 'console', 'agent-server', 'server', 'test-support'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`The build failed (exit code ${result.status})`);
}
