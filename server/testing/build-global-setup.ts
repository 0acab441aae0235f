import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The server tests run what `npm start` runs: the built server (the suites that start it as a
 * process) and the built agent server (every sandbox); and the stdio MCP server they start. Built
 * here when out of date, once per run.
 */
export default function setup(): void {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-if-needed.mjs'), 'agent-server', 'server', 'test-support'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`Building the server failed (exit code ${result.status})`);
}
